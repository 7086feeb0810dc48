import { useCallback, useEffect, useRef, type ReactNode, type UIEvent } from 'react';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import { INFINITE_SCROLL_THRESHOLD_PX } from '@balcao/contracts';
import { nearBottom } from './form';

interface Props {
  title: ReactNode;
  /** Buttons and search box at the right of the title. */
  actions?: ReactNode;
  children: ReactNode;
  /** Called when the list is scrolled within 100 px of its bottom (spec 1 §9). */
  onNearBottom?: () => void;
  testId?: string;
}

/** A list screen: title with its actions, and the scrolling paper that holds the table. */
export function ListPage({ title, actions, children, onNearBottom, testId }: Props) {
  const paper = useRef<HTMLDivElement>(null);
  // A first page that does not fill the paper cannot be scrolled: ask for the next one.
  useEffect(() => {
    const el = paper.current;
    if (el && onNearBottom && el.scrollHeight <= el.clientHeight) onNearBottom();
  });
  const onScroll = useCallback(
    (e: UIEvent<HTMLDivElement>) => {
      if (onNearBottom && nearBottom(e.currentTarget, INFINITE_SCROLL_THRESHOLD_PX)) onNearBottom();
    },
    [onNearBottom],
  );
  return (
    <Box data-testid={testId} sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2, minHeight: 0, flex: 1 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <Typography variant="h5" component="h1" color="primary" data-testid="page-title" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {actions && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
            {actions}
          </Stack>
        )}
      </Stack>
      <Paper ref={paper} variant="outlined" data-testid="list-scroll" onScroll={onScroll} sx={{ flex: 1, minHeight: 240, overflowY: 'auto' }}>
        {children}
      </Paper>
    </Box>
  );
}

/** The search box of a list: lowercases what is typed (spec 3 §5). */
export function SearchField({ value, onChange, testId = 'list-search' }: { value: string; onChange: (v: string) => void; testId?: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      size="small"
      placeholder={t('ui.actions.search')}
      value={value}
      onChange={(e) => onChange(e.target.value.toLowerCase())}
      slotProps={{
        htmlInput: { 'data-testid': testId, 'aria-label': t('ui.actions.search') },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" color="action" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
