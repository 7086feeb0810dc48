import { useState } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import MoodIcon from '@mui/icons-material/Mood';
import { useTranslation } from 'react-i18next';
import { COMMON_EMOJI } from './emoji';

/** The composer's emoji button and its grid; a choice is inserted at the caret. */
export function EmojiPicker({ onPick, disabled }: { onPick: (emoji: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t('conversation.composer.emoji')}>
        <span>
          <IconButton onClick={(e) => setAnchor(e.currentTarget)} disabled={disabled} aria-label={t('conversation.composer.emoji')}>
            <MoodIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <Box role="listbox" aria-label={t('conversation.composer.emoji')} sx={{ display: 'grid', gridTemplateColumns: 'repeat(8, 36px)', p: 1, maxHeight: 260, overflowY: 'auto' }}>
          {COMMON_EMOJI.map((e) => (
            <ButtonBase
              key={e}
              role="option"
              aria-label={e}
              aria-selected={false}
              onClick={() => onPick(e)}
              sx={{ width: 36, height: 36, fontSize: 22, borderRadius: 1, '&:hover': { bgcolor: 'action.hover' } }}
            >
              {e}
            </ButtonBase>
          ))}
        </Box>
      </Popover>
    </>
  );
}
