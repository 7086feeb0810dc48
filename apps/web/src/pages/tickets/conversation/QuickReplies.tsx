import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { QuickMessage } from '@balcao/contracts';
import { quickReplyLabel } from './compose';

interface Props {
  matches: QuickMessage[];
  active: number;
  onPick: (q: QuickMessage) => void;
}

/** Suggestions shown above the composer while its text starts with '/'. */
export function QuickReplies({ matches, active, onPick }: Props) {
  const { t } = useTranslation();
  return (
    <Paper elevation={4} sx={{ position: 'absolute', bottom: '100%', left: 8, right: 8, mb: 0.5, maxHeight: 240, overflowY: 'auto', zIndex: 2 }}>
      {matches.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 1.5 }}>
          {t('conversation.quickReplies.none')}
        </Typography>
      ) : (
        <MenuList dense aria-label={t('conversation.quickReplies.label')}>
          {matches.map((q, i) => (
            <MenuItem
              key={q.id}
              selected={i === active}
              // Keep the text field focused: pick on mouse down.
              onMouseDown={(e) => {
                e.preventDefault();
                onPick(q);
              }}
            >
              <Typography variant="body2" noWrap>
                {quickReplyLabel(q)}
              </Typography>
            </MenuItem>
          ))}
        </MenuList>
      )}
    </Paper>
  );
}
