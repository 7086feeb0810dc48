import { lazy, Suspense, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/Delete';
import EventIcon from '@mui/icons-material/Event';
import DoNotDisturbIcon from '@mui/icons-material/DoNotDisturb';
import HistoryIcon from '@mui/icons-material/History';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import ReplayIcon from '@mui/icons-material/Replay';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import UndoIcon from '@mui/icons-material/Undo';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';
import { can, type Ticket } from '@balcao/contracts';
import { useToggleDisableBot } from './conversationQueries';
import { useUser } from '../../../api/session';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { toastError } from '../../../components/toast';
import { ResolveMenu } from './ResolveMenu';
import { TicketLogDialog } from './TicketLogDialog';
import { TransferDialog } from './TransferDialog';
import { farewellWouldSend, headerActions } from './transitions';
import type { TicketActionsApi } from './useTicketActions';

const ScheduleDialog = lazy(() => import('../../schedules/ScheduleDialog').then((m) => ({ default: m.ScheduleDialog })));

interface Props {
  ticket: Ticket;
  actions: TicketActionsApi;
  compact: boolean;
  onExportPdf: () => void;
  exporting: boolean;
}

function ActionButton(props: { compact: boolean; label: string; icon: ReactNode; onClick: () => void; disabled: boolean; color?: 'primary' | 'inherit' | 'error' | 'warning'; variant?: 'contained' | 'outlined' | 'text' }) {
  const { compact, label, icon, onClick, disabled, color = 'primary', variant = 'outlined' } = props;
  if (compact) {
    return (
      <Tooltip title={label}>
        <span>
          <IconButton aria-label={label} onClick={onClick} disabled={disabled} color={color === 'inherit' ? 'default' : color}>
            {icon}
          </IconButton>
        </span>
      </Tooltip>
    );
  }
  return (
    <Button size="small" variant={variant} color={color} startIcon={icon} onClick={onClick} disabled={disabled}>
      {label}
    </Button>
  );
}

/** The header's buttons per status plus the menu of always-present actions (spec 2 §2 and §4). */
export function TicketActions({ ticket, actions, compact, onExportPdf, exporting }: Props) {
  const { t } = useTranslation();
  const me = useUser();
  const bot = useToggleDisableBot(ticket);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [transfer, setTransfer] = useState(false);
  const [logs, setLogs] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const main = headerActions(ticket, me);
  const busy = actions.busy;
  const canDelete = can(me.profile, 'ticket-options:deleteTicket');
  const closeMenu = () => setMenu(null);

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: compact ? 0 : 1, flexShrink: 0 }}>
      {main.includes('returnToQueue') && (
        <ActionButton compact={compact} label={t('conversation.header.returnToQueue')} icon={<UndoIcon />} onClick={() => void actions.returnToQueue()} disabled={busy} color="inherit" />
      )}
      {main.includes('resolve') && <ResolveMenu compact={compact} disabled={busy} farewell={farewellWouldSend(ticket, me)} onResolve={(f) => void actions.resolve(f)} />}
      {main.includes('transfer') && (
        <ActionButton compact={compact} label={t('conversation.header.transfer')} icon={<SwapHorizIcon />} onClick={() => setTransfer(true)} disabled={busy} />
      )}
      {main.includes('ignore') && (
        <ActionButton compact={compact} label={t('conversation.header.ignore')} icon={<DoNotDisturbIcon />} onClick={() => void actions.ignore()} disabled={busy} color="error" />
      )}
      {main.includes('accept') && (
        <ActionButton compact={compact} label={t('conversation.header.accept')} icon={<CheckIcon />} onClick={actions.requestAccept} disabled={busy} variant="contained" />
      )}
      {main.includes('reopen') && (
        <ActionButton compact={compact} label={t('conversation.header.reopen')} icon={<ReplayIcon />} onClick={actions.requestReopen} disabled={busy} variant="contained" />
      )}
      <IconButton aria-label={t('conversation.header.more')} aria-haspopup="menu" onClick={(e) => setMenu(e.currentTarget)}>
        <MoreVertIcon />
      </IconButton>
      <Menu anchorEl={menu} open={menu !== null} onClose={closeMenu}>
        <MenuItem
          onClick={() => {
            closeMenu();
            setLogs(true);
          }}
        >
          <ListItemIcon>
            <HistoryIcon fontSize="small" />
          </ListItemIcon>
          {t('conversation.header.logs')}
        </MenuItem>
        <MenuItem
          disabled={exporting}
          onClick={() => {
            closeMenu();
            onExportPdf();
          }}
        >
          <ListItemIcon>
            <PictureAsPdfIcon fontSize="small" />
          </ListItemIcon>
          {t('conversation.header.exportPdf')}
        </MenuItem>
        {me.company.plan?.useSchedules && (
          <MenuItem
            onClick={() => {
              closeMenu();
              setScheduling(true);
            }}
          >
            <ListItemIcon>
              <EventIcon fontSize="small" />
            </ListItemIcon>
            {t('schedules.scheduleMessage')}
          </MenuItem>
        )}
        <MenuItem onClick={() => void actions.toggleIntegration()} disabled={busy} role="menuitemcheckbox" aria-checked={ticket.useIntegration}>
          <ListItemText>{t('conversation.header.integration')}</ListItemText>
          <Switch size="small" edge="end" checked={ticket.useIntegration} tabIndex={-1} />
        </MenuItem>
        <MenuItem
          onClick={() => bot.mutate(undefined, { onError: toastError })}
          disabled={bot.isPending}
          role="menuitemcheckbox"
          aria-checked={!ticket.contact.disableBot}
        >
          <ListItemText>{t('conversation.header.chatbot')}</ListItemText>
          <Switch size="small" edge="end" checked={!ticket.contact.disableBot} tabIndex={-1} />
        </MenuItem>
        {canDelete && (
          <MenuItem
            onClick={() => {
              closeMenu();
              setConfirmDelete(true);
            }}
            sx={{ color: 'error.main' }}
          >
            <ListItemIcon>
              <DeleteIcon fontSize="small" color="error" />
            </ListItemIcon>
            {t('conversation.header.delete')}
          </MenuItem>
        )}
      </Menu>
      <TransferDialog open={transfer} busy={busy} onClose={() => setTransfer(false)} onTransfer={actions.transfer} />
      <TicketLogDialog ticketId={ticket.id} open={logs} onClose={() => setLogs(false)} />
      {scheduling && (
        <Suspense fallback={null}>
          <ScheduleDialog schedule={null} contact={ticket.contact} onClose={() => setScheduling(false)} />
        </Suspense>
      )}
      <ConfirmDialog
        open={confirmDelete}
        title={t('conversation.deleteTicket.title', { id: ticket.id })}
        confirmLabel={t('conversation.header.delete')}
        onClose={() => setConfirmDelete(false)}
        onConfirm={actions.deleteTicket}
      >
        {t('conversation.deleteTicket.message')}
      </ConfirmDialog>
    </Box>
  );
}
