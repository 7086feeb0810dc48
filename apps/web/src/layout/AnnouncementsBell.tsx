import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AnnouncementOutlinedIcon from '@mui/icons-material/AnnouncementOutlined';
import type { Announcement } from '@balcao/contracts';
import { BellEmpty, BellPopover } from './EmptyBell';
import { ANNOUNCEMENT_PLACEHOLDER, PRIORITY_COLORS, announcementImageUrl, useActiveAnnouncements } from '../api/announcements';

/** The image, or the placeholder once it fails to load (spec 3 §2). */
function AnnouncementImage({ announcement }: { announcement: Announcement }) {
  const src = announcementImageUrl(announcement);
  const [broken, setBroken] = useState(false);
  if (!src) return null;
  return (
    <Box
      component="img"
      src={broken ? ANNOUNCEMENT_PLACEHOLDER : src}
      alt={announcement.mediaName ?? announcement.title}
      onError={() => setBroken(true)}
      data-testid="announcement-viewer-image"
      data-broken={broken}
      sx={{ display: 'block', maxWidth: '100%', maxHeight: 320, mx: 'auto', mb: 2, borderRadius: 1 }}
    />
  );
}

function AnnouncementViewer({ announcement, onClose }: { announcement: Announcement; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="announcement-viewer">
      <DialogTitle sx={{ borderLeft: 6, borderColor: PRIORITY_COLORS[announcement.priority] }}>{announcement.title}</DialogTitle>
      <DialogContent dividers>
        <AnnouncementImage announcement={announcement} />
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="announcement-viewer-text">
          {announcement.text}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('announcements.bell.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The top-bar announcements bell (spec 1 §2, 3 §2): the count of active announcements, their
 * list by priority (coloured 1 red, 2 orange, 3 grey), and the viewer dialog of the one opened.
 */
export function AnnouncementsBell() {
  const { t } = useTranslation();
  const { data } = useActiveAnnouncements();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [open, setOpen] = useState<Announcement | null>(null);
  const list = data ?? [];
  const label = t('topBar.announcements');
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          // The badge's digits are part of the visible name (axe label-content-name-mismatch).
          aria-label={list.length > 0 ? `${label} ${list.length}` : label}
          data-testid="announcements-bell"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <Badge badgeContent={list.length > 0 ? list.length : null} color="error" data-testid="announcements-count">
            <AnnouncementOutlinedIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <BellPopover anchor={anchor} onClose={() => setAnchor(null)}>
        {list.length === 0 ? (
          <BellEmpty text={t('topBar.noAnnouncements')} />
        ) : (
          <List dense component="div" sx={{ width: 340, maxWidth: '90vw', maxHeight: 420, overflow: 'auto' }} data-testid="announcements-list">
            {list.map((a) => (
              <ListItemButton
                key={a.id}
                data-testid={`announcement-item-${a.id}`}
                data-priority={a.priority}
                sx={{ borderLeft: 6, borderColor: PRIORITY_COLORS[a.priority] }}
                onClick={() => {
                  setAnchor(null);
                  setOpen(a);
                }}
              >
                <ListItemText primary={a.title} secondary={a.text} slotProps={{ secondary: { noWrap: true } }} />
              </ListItemButton>
            ))}
          </List>
        )}
      </BellPopover>
      {open && <AnnouncementViewer announcement={open} onClose={() => setOpen(null)} />}
    </>
  );
}
