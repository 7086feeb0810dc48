import { memo } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import ContactPageOutlinedIcon from '@mui/icons-material/ContactPageOutlined';
import { DEFAULT_QUEUE_COLOR, type Ticket } from '@balcao/contracts';
import { QueuelessFlag } from './QueuelessFlag';
import {
  CONTACT_NAME_MAX,
  LAST_MESSAGE_MAX,
  ROW_TAGS_SHOWN,
  firstWithRest,
  lastMessagePreview,
  readableTextColor,
  rowTags,
  rowTime,
  truncate,
  type RowTime,
} from './rowFormat';

interface Props {
  ticket: Ticket;
  selected: boolean;
  /** Admins see who holds the ticket (spec 1 §6). */
  showOwner: boolean;
  now: Date;
  /** Pending rows offer Accept. */
  onAccept?: (ticket: Ticket) => void;
  onOpen?: () => void;
}

function useTimeLabel(time: RowTime | null): string {
  const { t } = useTranslation();
  if (!time) return '';
  switch (time.kind) {
    case 'now':
      return t('tickets.row.now');
    case 'minutes':
      return t('tickets.row.minutes', { n: time.n });
    case 'hours':
      return time.clock;
    case 'yesterday':
      return t('tickets.row.yesterday');
    case 'date':
      return time.date;
  }
}

const chipSx = (color: string) => ({
  height: 18,
  fontSize: 11,
  maxWidth: 140,
  bgcolor: color,
  color: readableTextColor(color),
  '& .MuiChip-label': { px: 0.75 },
});

/** One inbox row (spec 2 §2 "Ticket row"): opens /tickets/{uuid}. */
export const TicketRow = memo(function TicketRow({ ticket, selected, showOwner, now, onAccept, onOpen }: Props) {
  const { t } = useTranslation();
  const queueColor = ticket.queue?.color || DEFAULT_QUEUE_COLOR;
  const tags = firstWithRest(rowTags(ticket), ROW_TAGS_SHOWN);
  const name = truncate(ticket.contact?.name, CONTACT_NAME_MAX);
  const time = useTimeLabel(rowTime(ticket.updatedAt, now));
  const unread = ticket.unreadMessages > 0 ? ticket.unreadMessages : 0;
  const preview = lastMessagePreview(ticket.lastMessage);

  return (
    <Box role="listitem" data-ticket-id={ticket.id} sx={{ display: 'flex', alignItems: 'stretch', borderBottom: 1, borderColor: 'divider' }}>
      <ListItemButton
        component={RouterLink}
        to={`/tickets/${ticket.uuid}`}
        selected={selected}
        onClick={onOpen}
        aria-current={selected ? 'page' : undefined}
        sx={{
          alignItems: 'flex-start',
          gap: 1.5,
          py: 1,
          pl: 1.5,
          pr: 1,
          minWidth: 0,
          borderLeft: 4,
          borderLeftColor: queueColor,
        }}
      >
        <Avatar src={ticket.contact?.urlPicture ?? undefined} alt="" aria-hidden sx={{ width: 44, height: 44, mt: 0.25 }}>
          {name.charAt(0).toUpperCase()}
        </Avatar>
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 0.25 }}>
          <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
            <Typography variant="subtitle2" component="span" noWrap sx={{ flex: 1, minWidth: 0, fontWeight: unread ? 700 : 600 }} title={ticket.contact?.name}>
              {name}
            </Typography>
            <Typography
              variant="caption"
              component="time"
              dateTime={ticket.updatedAt}
              color={unread ? 'success.main' : 'text.secondary'}
              sx={{ flexShrink: 0, fontWeight: unread ? 700 : 400 }}
            >
              {time}
            </Typography>
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }}>
              {preview.contactCard && <ContactPageOutlinedIcon sx={{ fontSize: 16, mr: 0.5, verticalAlign: 'text-bottom' }} />}
              {truncate(preview.text, LAST_MESSAGE_MAX)}
            </Typography>
            {unread > 0 && (
              <Badge
                badgeContent={unread}
                max={999}
                color="success"
                aria-label={t('tickets.row.unread', { count: unread })}
                sx={{ mr: 1.5, '& .MuiBadge-badge': { position: 'static', transform: 'none' } }}
              />
            )}
          </Box>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.25 }}>
            {!ticket.queue && showOwner ? (
              <QueuelessFlag />
            ) : (
              <Chip size="small" label={ticket.queue?.name ?? t('tickets.row.noQueue')} sx={chipSx(queueColor)} />
            )}
            {showOwner && ticket.user && (
              <Chip size="small" variant="outlined" label={ticket.user.name} title={t('tickets.row.owner', { name: ticket.user.name })} sx={{ height: 18, fontSize: 11, maxWidth: 140 }} />
            )}
            {tags.shown.map((tag) => (
              <Chip key={tag.id} size="small" label={tag.name} sx={chipSx(tag.color || DEFAULT_QUEUE_COLOR)} />
            ))}
            {tags.rest > 0 && <Chip size="small" variant="outlined" label={`+${tags.rest}`} sx={{ height: 18, fontSize: 11 }} />}
          </Box>
        </Box>
      </ListItemButton>
      {onAccept && ticket.status === 'pending' && (
        <Box sx={{ display: 'flex', alignItems: 'center', pr: 1 }}>
          <Button size="small" variant="contained" color="success" onClick={() => onAccept(ticket)} aria-label={`${t('tickets.row.accept')} ${name}`}>
            {t('tickets.row.accept')}
          </Button>
        </Box>
      )}
    </Box>
  );
});
