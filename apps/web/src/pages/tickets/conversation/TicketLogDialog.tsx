import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';
import { useTicketLogs } from './conversationQueries';
import { formatDate } from '../../../components/format';
import { ListState } from '../../../components/ListStates';
import { messageTime } from './timeline';

/** `GET /tickets-log/{ticketId}`: what happened to the ticket, oldest first. */
export function TicketLogDialog({ ticketId, open, onClose }: { ticketId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const logs = useTicketLogs(ticketId, open);
  const list = logs.data ?? [];
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="ticket-log-title">
      <DialogTitle id="ticket-log-title">{t('conversation.logs.title', { id: ticketId })}</DialogTitle>
      <DialogContent dividers>
        <ListState loading={logs.isLoading} error={logs.isError} empty={!logs.isLoading && !logs.isError && list.length === 0} onRetry={() => void logs.refetch()} />
        <List dense>
          {list.map((log) => (
            <ListItem key={log.id} divider>
              <ListItemText
                primary={t(`conversation.logs.types.${log.type}`, {
                  user: log.user?.name ?? t('conversation.logs.system'),
                  queue: log.queue?.name ?? t('conversation.noQueue'),
                })}
                secondary={`${formatDate(log.createdAt)} ${messageTime(log.createdAt)}`}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('conversation.actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
