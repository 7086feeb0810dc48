import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Slider from '@mui/material/Slider';
import Tooltip from '@mui/material/Tooltip';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeDownIcon from '@mui/icons-material/VolumeDown';
import { useTranslation } from 'react-i18next';
import { readStorage, STORAGE_KEYS, writeStorage } from '../api/storage';

/** The notification volume (0–1, step 0.1, default 1), remembered in this browser. */
export function readVolume(): number {
  const raw = readStorage(STORAGE_KEYS.volume);
  const n = raw === null ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : 1;
}

export function VolumeControl() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [volume, setVolume] = useState(readVolume);
  const Icon = volume === 0 ? VolumeOffIcon : volume < 0.5 ? VolumeDownIcon : VolumeUpIcon;
  return (
    <>
      <Tooltip title={t('topBar.volume')}>
        <IconButton color="inherit" aria-label={t('topBar.volume')} data-testid="volume-button" onClick={(e) => setAnchor(e.currentTarget)}>
          <Icon />
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        transformOrigin={{ vertical: 'top', horizontal: 'center' }}
        slotProps={{ paper: { sx: { px: 3, py: 1, width: 200 } } }}
      >
        <Slider
          aria-label={t('topBar.volume')}
          data-testid="volume-slider"
          min={0}
          max={1}
          step={0.1}
          value={volume}
          valueLabelDisplay="auto"
          onChange={(_, v) => {
            const next = Array.isArray(v) ? (v[0] ?? 1) : v;
            setVolume(next);
            writeStorage(STORAGE_KEYS.volume, String(next));
          }}
        />
      </Popover>
    </>
  );
}
