import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '@balcao/contracts';
import { TicketActions } from './TicketActions';
import { useElementWidth } from './useElementWidth';
import type { TicketActionsApi } from './useTicketActions';
import { readableTextColor } from '../list/rowFormat';

const COMPACT_BELOW_PX = 680;

interface Props {
  ticket: Ticket;
  actions: TicketActionsApi;
  onOpenContact: () => void;
  onExportPdf: () => void;
  exporting: boolean;
}

/** Contact name, '#id', assignee and queue, then the actions (spec 2 §2). */
export function TicketHeader({ ticket, actions, onOpenContact, onExportPdf, exporting }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const navigate = useNavigate();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  // Text buttons need room beside the contact's name; below that they become icons.
  const [ref, width] = useElementWidth<HTMLElement>();
  const compact = width > 0 && width < COMPACT_BELOW_PX;
  const picture = ticket.contact.urlPicture ?? ticket.contact.profilePicUrl ?? undefined;
  return (
    <Box
      ref={ref}
      component="header"
      sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1, py: 0.75, minHeight: 60, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
      data-testid="ticket-header"
    >
      {narrow && (
        <IconButton aria-label={t('conversation.header.back')} onClick={() => navigate('/tickets')} size="small">
          <ArrowBackIcon />
        </IconButton>
      )}
      <ButtonBase
        onClick={onOpenContact}
        // Named by what it shows (contact, number, owner); what it does is its description (axe label-content-name-mismatch).
        aria-description={t('conversation.header.openContact', { name: ticket.contact.name })}
        sx={{ display: 'flex', alignItems: 'center', gap: 1, flex: 1, minWidth: 0, justifyContent: 'flex-start', textAlign: 'left', borderRadius: 1, p: 0.5 }}
      >
        <Avatar src={picture} alt="" sx={{ width: 40, height: 40 }}>
          {ticket.contact.name.charAt(0).toUpperCase()}
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle1" fontWeight={600} noWrap data-testid="ticket-contact-name">
            {ticket.contact.name}{' '}
            <Typography component="span" variant="body2" color="text.secondary">
              #{ticket.id}
            </Typography>
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, minWidth: 0 }}>
            <Typography variant="caption" color="text.secondary" noWrap>
              {ticket.user ? t('conversation.header.assignedTo', { name: ticket.user.name }) : t('conversation.header.unassigned')}
            </Typography>
            {ticket.queue && !narrow && (
              <Chip size="small" label={ticket.queue.name} sx={{ height: 18, fontSize: 11, bgcolor: ticket.queue.color, color: readableTextColor(ticket.queue.color) }} />
            )}
          </Box>
        </Box>
      </ButtonBase>
      <TicketActions ticket={ticket} actions={actions} compact={compact} onExportPdf={onExportPdf} exporting={exporting} />
    </Box>
  );
}
