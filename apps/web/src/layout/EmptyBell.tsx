import { useState, type ReactElement, type ReactNode } from 'react';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';

interface Props {
  icon: ReactElement;
  label: string;
  emptyText: string;
  testId: string;
}

/**
 * A top-bar bell without a feed yet (notifications). Its feed
 * arrives with a later issue; until then the bell shows its honest count (0,
 * so no badge) and an empty list.
 */
export function EmptyBell({ icon, label, emptyText, testId }: Props) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const count = 0;
  return (
    <>
      <Tooltip title={label}>
        <IconButton color="inherit" aria-label={label} data-testid={testId} onClick={(e) => setAnchor(e.currentTarget)}>
          {/* No count, no badge text: a hidden "0" would not match the button's name (axe label-content-name-mismatch). */}
          <Badge badgeContent={count > 0 ? count : null} color="error">
            {icon}
          </Badge>
        </IconButton>
      </Tooltip>
      <BellPopover anchor={anchor} onClose={() => setAnchor(null)}>
        <BellEmpty text={emptyText} />
      </BellPopover>
    </>
  );
}

/** The panel a top-bar bell opens, under its right edge. */
export function BellPopover({ anchor, onClose, children }: { anchor: HTMLElement | null; onClose: () => void; children: ReactNode }) {
  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      {children}
    </Popover>
  );
}

/** What a bell's panel says when it has nothing. */
export function BellEmpty({ text }: { text: string }) {
  return (
    <Typography sx={{ p: 2, minWidth: 240 }} color="text.secondary">
      {text}
    </Typography>
  );
}
