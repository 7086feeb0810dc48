import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { LIST_MAX_WIDTH, LIST_MIN_WIDTH, LIST_WIDTH_STEP, clampListWidth } from './list/width';

interface Props {
  left: ReactNode;
  right: ReactNode;
  initialWidth: number;
  /** The width the user settled on (drag end, or a key press on the divider). */
  onWidthCommit: (width: number) => void;
}

/** List and conversation side by side with a draggable divider; the list stays 404–700 px wide (spec 2 §2, §9). */
export function SplitPane({ left, right, initialWidth, onWidthCommit }: Props) {
  const { t } = useTranslation();
  const [width, setWidth] = useState(() => clampListWidth(initialWidth));
  const drag = useRef<{ startX: number; startWidth: number; width: number } | null>(null);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { startX: e.clientX, startWidth: width, width };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    d.width = clampListWidth(d.startWidth + e.clientX - d.startX);
    setWidth(d.width);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    drag.current = null;
    e.currentTarget.releasePointerCapture(e.pointerId);
    if (d.width !== d.startWidth) onWidthCommit(d.width);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === 'ArrowLeft' ? -LIST_WIDTH_STEP : e.key === 'ArrowRight' ? LIST_WIDTH_STEP : 0;
    const next = e.key === 'Home' ? LIST_MIN_WIDTH : e.key === 'End' ? LIST_MAX_WIDTH : clampListWidth(width + step);
    if (next === width || (step === 0 && e.key !== 'Home' && e.key !== 'End')) return;
    e.preventDefault();
    setWidth(next);
    onWidthCommit(next);
  };

  return (
    <Box sx={{ display: 'flex', flex: 1, minWidth: 0, minHeight: 0, height: '100%' }}>
      <Box sx={{ width, flexShrink: 0, minHeight: 0, display: 'flex', flexDirection: 'column' }}>{left}</Box>
      <Box
        role="separator"
        aria-orientation="vertical"
        aria-label={t('tickets.divider')}
        aria-valuemin={LIST_MIN_WIDTH}
        aria-valuemax={LIST_MAX_WIDTH}
        aria-valuenow={width}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
        sx={{
          width: 6,
          flexShrink: 0,
          cursor: 'col-resize',
          touchAction: 'none',
          bgcolor: 'divider',
          borderLeft: 2,
          borderRight: 2,
          borderColor: 'background.paper',
          transition: 'background-color 120ms',
          '&:hover, &:focus-visible': { bgcolor: 'primary.main', outline: 'none' },
        }}
      />
      <Box sx={{ flex: 1, minWidth: 0, minHeight: 0, display: 'flex', flexDirection: 'column' }}>{right}</Box>
    </Box>
  );
}
