import './texts';
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { DashboardCounters } from '@balcao/contracts';
import { useTranslation } from 'react-i18next';

/** Minutes as the cards show them: '47 min', '2 h 05 min'. */
export function formatMinutes(minutes: number): string {
  const total = Math.round(minutes);
  if (total < 60) return `${total} min`;
  return `${Math.floor(total / 60)} h ${String(total % 60).padStart(2, '0')} min`;
}

const grid = { display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(190px, 1fr))' } as const;

function Card({ id, label, value }: { id: string; label: string; value: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid={`indicator-${id}`}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p" sx={{ fontWeight: 600 }} data-testid={`indicator-${id}-value`}>
        {value}
      </Typography>
    </Paper>
  );
}

function Bar({ id, label, value }: { id: string; label: string; value: number }) {
  return (
    <Box data-testid={`bar-${id}`}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
        <Typography variant="body2">{label}</Typography>
        <Typography variant="body2" data-testid={`bar-${id}-value`}>
          {value}%
        </Typography>
      </Box>
      <LinearProgress variant="determinate" value={Math.max(0, Math.min(100, value))} aria-label={label} sx={{ height: 8, borderRadius: 1 }} />
    </Box>
  );
}

export interface MessageCounts {
  received: number;
  sent: number;
  receivedToday: number;
  sentToday: number;
}

/** 'Indicadores' (spec 2 §2): the counters of docs/dashboard.md. */
export function Indicators({ c, messages }: { c: DashboardCounters; messages: MessageCounts | undefined }) {
  const { t } = useTranslation();
  const k = (key: string) => t(`dashboard.indicators.${key}`);
  return (
    <Box component="section" aria-label={k('title')}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {k('title')}
      </Typography>
      <Box sx={grid}>
        <Card id="happening" label={k('happening')} value={c.supportHappening} />
        <Card id="pending" label={k('pending')} value={c.supportPending} />
        <Card id="finished" label={k('finished')} value={c.supportFinished} />
        <Card id="groups" label={k('groups')} value={c.supportGroups} />
        <Card id="users" label={k('users')} value={`${c.usersOnline}/${c.usersTotal}`} />
        <Card id="leads" label={k('leads')} value={c.leads} />
        <Card id="received" label={k('received')} value={messages ? `${messages.received}/${messages.receivedToday}` : '…'} />
        <Card id="sent" label={k('sent')} value={messages ? `${messages.sent}/${messages.sentToday}` : '…'} />
        <Card id="support-time" label={k('supportTime')} value={formatMinutes(c.avgSupportTime)} />
        <Card id="wait-time" label={k('waitTime')} value={formatMinutes(c.avgWaitTime)} />
        <Card id="active" label={k('active')} value={c.activeTickets} />
        <Card id="passive" label={k('passive')} value={c.passiveTickets} />
      </Box>
    </Box>
  );
}

/** 'Pesquisa de satisfação' and 'Atendimentos' (spec 2 §2). */
export function RatingBlocks({ c }: { c: DashboardCounters }) {
  const { t } = useTranslation();
  const k = (key: string) => t(`dashboard.rating.${key}`);
  return (
    <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1 }} component="section" aria-label={k('npsTitle')}>
        <Typography variant="h6" component="h2">
          {k('npsTitle')}
        </Typography>
        <Typography data-testid="nps-score">
          {k('score')}: <strong>{c.npsScore}</strong>
        </Typography>
        <Bar id="promoters" label={k('promoters')} value={c.npsPromotersPerc} />
        <Bar id="neutral" label={k('neutral')} value={c.npsPassivePerc} />
        <Bar id="detractors" label={k('detractors')} value={c.npsDetractorsPerc} />
      </Paper>
      <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1 }} component="section" aria-label={k('callsTitle')}>
        <Typography variant="h6" component="h2">
          {k('callsTitle')}
        </Typography>
        <Typography data-testid="calls-total">
          {k('total')}: <strong>{c.tickets}</strong>
        </Typography>
        <Typography data-testid="calls-wait">
          {k('waitRating')}: <strong>{c.waitRating}</strong>
        </Typography>
        <Typography data-testid="calls-without">
          {k('withoutRating')}: <strong>{c.withoutRating}</strong>
        </Typography>
        <Typography data-testid="calls-with">
          {k('withRating')}: <strong>{c.withRating}</strong>
        </Typography>
        <Bar id="rating-index" label={k('index')} value={c.percRating} />
      </Paper>
    </Box>
  );
}
