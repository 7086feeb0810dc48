import './texts';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import type { MomentTicket } from '@balcao/contracts';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../api/session';
import { formatDate } from '../../components/format';
import { ListState } from '../../components/ListStates';
import { useMoments, useMomentsLive } from './momentsQueries';

/** Spec 2 §2: over `max` characters, the first `keep` plus an ellipsis. */
export const cut = (text: string, max: number, keep: number) => (text.length > max ? `${text.slice(0, keep)}...` : text);

/** HH:mm when updated today, else dd/MM/yyyy. */
export function momentTime(iso: string, now = new Date()): string {
  const d = new Date(iso);
  return d.toDateString() === now.toDateString() ? d.toTimeString().slice(0, 5) : formatDate(iso);
}

function MomentItem({ m, canOpen }: { m: MomentTicket; canOpen: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <ListItem
      divider
      data-testid={`moment-${m.id}`}
      secondaryAction={
        canOpen && (
          <IconButton edge="end" aria-label={t('moments.open')} onClick={() => navigate(`/tickets/${m.uuid}`)} data-testid={`moment-open-${m.id}`}>
            <OpenInNewIcon fontSize="small" />
          </IconButton>
        )
      }
    >
      <ListItemAvatar>
        <Badge badgeContent={m.unreadMessages} color="success" data-testid={`moment-unread-${m.id}`}>
          <Avatar src={m.contact.profilePicUrl ?? undefined} alt={m.contact.name} />
        </Badge>
      </ListItemAvatar>
      <ListItemText
        primary={
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography component="span" sx={{ fontWeight: 600 }}>
              {cut(m.contact.name, 30, 25)}
            </Typography>
            {m.queue && <Chip size="small" label={m.queue.name} sx={{ bgcolor: m.queue.color, color: 'common.white' }} />}
            <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 'auto' }}>
              {momentTime(m.updatedAt)}
            </Typography>
          </Box>
        }
        secondary={
          <>
            <Typography component="span" variant="body2" sx={{ display: 'block' }}>
              {cut(m.lastMessage, 30, 27)}
            </Typography>
            <Typography component="span" variant="caption" color="text.secondary">
              {[m.user?.name ?? t('moments.noUser'), m.whatsapp?.name].filter(Boolean).join(' · ')}
            </Typography>
          </>
        }
      />
    </ListItem>
  );
}

/** Route /moments ('Painel de Atendimentos', spec 2 §2): open and pending tickets, live. */
export function MomentsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const moments = useMoments();
  useMomentsLive();
  const isAdmin = user.profile === 'admin' || user.super;
  const list = moments.data ?? [];
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="h5" component="h1" color="primary" data-testid="page-title" sx={{ fontWeight: 600 }}>
        {t('pages.moments')}
      </Typography>
      <ListState loading={moments.isLoading} error={moments.isError} empty={false} onRetry={() => void moments.refetch()} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        {(['open', 'pending'] as const).map((status) => {
          const items = list.filter((m) => m.status === status);
          return (
            <Paper key={status} variant="outlined" component="section" aria-label={t(`moments.status.${status}`)} data-testid={`moments-${status}`}>
              <Typography variant="h6" component="h2" sx={{ p: 2, pb: 0 }}>
                {t(`moments.status.${status}`)} ({items.length})
              </Typography>
              <List dense>
                {items.map((m) => (
                  <MomentItem key={m.id} m={m} canOpen={isAdmin || m.userId === user.id} />
                ))}
                {!moments.isLoading && items.length === 0 && (
                  <ListItem>
                    <ListItemText secondary={t('moments.empty')} />
                  </ListItem>
                )}
              </List>
            </Paper>
          );
        })}
      </Box>
    </Box>
  );
}
