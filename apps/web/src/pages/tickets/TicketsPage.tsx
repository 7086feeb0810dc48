import { useEffect, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import ChatOutlinedIcon from '@mui/icons-material/ChatOutlined';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import QuestionAnswerOutlinedIcon from '@mui/icons-material/QuestionAnswerOutlined';
import { useUser } from '../../api/session';
import { saveTicketsManagerWidth, ticketsKeys } from './list/ticketQueries';
import { toastError } from '../../components/toast';
import { Conversation } from './conversation/Conversation';
import { viewerOf } from './list/listModel';
import { TicketsManager } from './list/TicketsManager';
import { useLiveTickets } from './list/useLiveTickets';
import { clampListWidth } from './list/width';
import { SplitPane } from './SplitPane';

/** The right pane before a ticket is chosen. */
function NoTicketSelected() {
  const { t } = useTranslation();
  return (
    <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1, p: 4, textAlign: 'center' }}>
      <QuestionAnswerOutlinedIcon sx={{ fontSize: 72, color: 'text.disabled' }} />
      <Typography variant="h6" color="text.secondary">
        {t('tickets.emptyConversation.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 360 }}>
        {t('tickets.emptyConversation.text')}
      </Typography>
    </Box>
  );
}

/** The list width: the user's saved choice, then what they dragged to in this session. */
function useListWidth() {
  const user = useUser();
  const queryClient = useQueryClient();
  const key = ticketsKeys.listWidth(user.id);
  const initial = queryClient.getQueryData<number>(key) ?? clampListWidth(user.defaultTicketsManagerWidth);
  const commit = (width: number) => {
    queryClient.setQueryData(key, width);
    saveTicketsManagerWidth(user.id, width).catch(toastError);
  };
  return { initial, commit };
}

function TicketsLayout({ ticketUuid }: { ticketUuid: string | null }) {
  const { t } = useTranslation();
  const user = useUser();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const width = useListWidth();
  const [mobileTab, setMobileTab] = useState<'ticket' | 'list'>(ticketUuid ? 'ticket' : 'list');
  useLiveTickets(viewerOf(user));

  // Opening a ticket on a narrow screen shows it; leaving it shows the list again.
  useEffect(() => {
    setMobileTab(ticketUuid ? 'ticket' : 'list');
  }, [ticketUuid]);

  const conversation = ticketUuid ? <Conversation key={ticketUuid} ticketUuid={ticketUuid} /> : <NoTicketSelected />;
  const manager = <TicketsManager selectedUuid={ticketUuid} onOpenTicket={narrow ? () => setMobileTab('ticket') : undefined} />;

  if (!narrow) {
    return (
      <Box sx={{ flex: 1, minWidth: 0, minHeight: 0, display: 'flex', bgcolor: 'background.paper' }}>
        <SplitPane left={manager} right={conversation} initialWidth={width.initial} onWidthCommit={width.commit} />
      </Box>
    );
  }

  // Narrow screens: two bottom tabs, Ticket and Atendimentos (spec 2 §2); both stay mounted.
  return (
    <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', bgcolor: 'background.paper' }}>
      <Box sx={{ flex: 1, minHeight: 0, display: mobileTab === 'ticket' ? 'flex' : 'none', flexDirection: 'column' }}>{conversation}</Box>
      <Box sx={{ flex: 1, minHeight: 0, display: mobileTab === 'list' ? 'flex' : 'none', flexDirection: 'column' }}>{manager}</Box>
      <Tabs
        value={mobileTab}
        onChange={(_e, v: 'ticket' | 'list') => setMobileTab(v)}
        variant="fullWidth"
        aria-label={t('tickets.mobile.label')}
        sx={{ borderTop: 1, borderColor: 'divider', flexShrink: 0 }}
      >
        <Tab value="ticket" label={t('tickets.mobile.ticket')} icon={<ChatOutlinedIcon />} iconPosition="start" sx={{ minHeight: 52 }} />
        <Tab value="list" label={t('tickets.mobile.list')} icon={<ForumOutlinedIcon />} iconPosition="start" sx={{ minHeight: 52 }} />
      </Tabs>
    </Box>
  );
}

/** Routes /tickets and /tickets/:ticketId (the ticket's uuid); the literal 'undefined' goes back to /tickets. */
export function TicketsPage() {
  const { ticketId } = useParams();
  if (ticketId === 'undefined') return <Navigate to="/tickets" replace />;
  return <TicketsLayout ticketUuid={ticketId ?? null} />;
}
