import { useState, type ReactElement } from 'react';
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
 * A top-bar bell (notifications, internal chat). Their feeds
 * arrive with later issues; until then the bell shows its honest count (0,
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
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Typography sx={{ p: 2, minWidth: 240 }} color="text.secondary">
          {emptyText}
        </Typography>
      </Popover>
    </>
  );
}
