import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { readStorage, writeStorage } from '../../../api/storage';
import { nextSpeed, parseSpeed, PLAYBACK_SPEED_KEY } from './audio';

/** A voice message: the browser's player plus the speed button (0.5 → 1 → 1.5 → 2, remembered). */
export function AudioPlayer({ src }: { src: string }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLAudioElement>(null);
  const [speed, setSpeed] = useState(() => parseSpeed(readStorage(PLAYBACK_SPEED_KEY)));
  useEffect(() => {
    if (ref.current) ref.current.playbackRate = speed;
  }, [speed]);
  const cycle = () => {
    const next = nextSpeed(speed);
    writeStorage(PLAYBACK_SPEED_KEY, String(next));
    setSpeed(next);
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, maxWidth: '100%' }}>
      <audio ref={ref} src={src} controls preload="metadata" style={{ maxWidth: 260, height: 40 }} onPlay={() => ref.current && (ref.current.playbackRate = speed)} />
      <Button
        size="small"
        variant="outlined"
        onClick={cycle}
        aria-label={t('conversation.media.speed', { speed })}
        sx={{ minWidth: 44, px: 0.5, borderRadius: 4, fontSize: 12, textTransform: 'none' }}
      >
        {speed}x
      </Button>
    </Box>
  );
}
