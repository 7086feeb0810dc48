import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SEARCH_DEBOUNCE_MS, type Contact } from '@balcao/contracts';
import { useUser } from '../../../api/session';
import { useContactSearch, useCreateTicket } from './ticketQueries';
import { useConnectionOptions } from '../../../api/users';
import { useDebouncedValue } from '../../../components/form';
import { toastError } from '../../../components/toast';
import { parseTicketConflict, type ExistingTicket } from './conflict';
import { useQueueOptions } from './useQueueOptions';

/** Contact search starts from 3 characters (spec 2 §5, §9). */
export const CONTACT_SEARCH_MIN = 3;

type ConnectionChoice = { id: number; name: string; channel?: Contact['channel'] };

interface Props {
  open: boolean;
  onClose: () => void;
  /** The contact's ticket is held by another user: the caller shows who. */
  onHeldByOther: (ticket: ExistingTicket) => void;
  /** The contact chosen beforehand (the contacts page's channel button). */
  contact?: Contact;
}

/**
 * Creates an open ticket for a contact (spec 2 §4 "New ticket dialog"). A
 * contact that already has one: the current user's opens, another user's is named.
 */
export function NewTicketDialog({ open, onClose, onHeldByOther, contact: chosen }: Props) {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const create = useCreateTicket();
  const [input, setInput] = useState(chosen?.name ?? '');
  const [contact, setContact] = useState<Contact | null>(chosen ?? null);
  const queues = useQueueOptions();
  const [queueId, setQueueId] = useState<number | ''>(user.queues.length === 1 ? user.queues[0]!.id : '');
  const connections = useConnectionOptions(open);
  const [whatsappId, setWhatsappId] = useState<number | ''>(user.whatsappId ?? '');
  const [queueMissing, setQueueMissing] = useState(false);

  const term = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);
  const searching = term.length >= CONTACT_SEARCH_MIN;
  const contacts = useContactSearch(term, open && searching);
  // A ticket lives on a connection of the contact's channel.
  const connectionList = ((connections.data ?? []) as ConnectionChoice[]).filter((c) => !contact || !c.channel || c.channel === contact.channel);
  const chosenWhatsapp = connectionList.some((c) => c.id === whatsappId) ? (whatsappId as number) : (connectionList[0]?.id ?? null);

  const close = () => {
    if (create.isPending) return;
    setInput('');
    setContact(null);
    setQueueMissing(false);
    onClose();
  };

  const submit = () => {
    if (!contact) return;
    // A ticket needs a queue (the server answers ERR_QUEUE_REQUIRED otherwise).
    if (queueId === '') {
      setQueueMissing(true);
      return;
    }
    create.mutate(
      { contactId: contact.id, queueId, whatsappId: chosenWhatsapp, userId: user.id, status: 'open' },
      {
        onSuccess: (ticket) => {
          close();
          navigate(`/tickets/${ticket.uuid}`);
        },
        onError: (err) => {
          const existing = parseTicketConflict(err);
          if (!existing) return toastError(err);
          close();
          if (existing.userId !== null && existing.userId !== user.id) onHeldByOther(existing);
          else navigate(`/tickets/${existing.uuid}`);
        },
      },
    );
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="new-ticket-title">
      <DialogTitle id="new-ticket-title">{t('tickets.newTicket.title')}</DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Autocomplete
          options={searching ? (contacts.data?.contacts ?? []) : []}
          value={contact}
          onChange={(_e, value) => setContact(value)}
          getOptionKey={(c) => c.id}
          inputValue={input}
          onInputChange={(_e, value) => setInput(value)}
          getOptionLabel={(c) => c.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          filterOptions={(x) => x}
          loading={searching && contacts.isFetching}
          loadingText={t('tickets.newTicket.searching')}
          noOptionsText={searching ? t('tickets.newTicket.noContacts') : t('tickets.newTicket.contactHint')}
          renderOption={({ key, ...props }, c) => (
            <Box component="li" key={key} {...props} sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
              <Avatar src={c.urlPicture ?? undefined} sx={{ width: 28, height: 28 }}>
                {c.name.charAt(0).toUpperCase()}
              </Avatar>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2" noWrap>
                  {c.name}
                </Typography>
                <Typography variant="caption" color="text.secondary" noWrap>
                  {c.number}
                </Typography>
              </Box>
            </Box>
          )}
          renderInput={(params) => (
            <TextField
              {...params}
              autoFocus
              label={t('tickets.newTicket.contact')}
              helperText={t('tickets.newTicket.contactHint')}
              slotProps={{
                input: {
                  ...params.InputProps,
                  endAdornment: (
                    <>
                      {searching && contacts.isFetching ? <CircularProgress size={18} /> : null}
                      {params.InputProps.endAdornment}
                    </>
                  ),
                },
              }}
            />
          )}
        />
        <FormControl fullWidth error={queueMissing}>
          <InputLabel id="new-ticket-queue-label" shrink>
            {t('tickets.newTicket.queue')}
          </InputLabel>
          <Select
            labelId="new-ticket-queue-label"
            label={t('tickets.newTicket.queue')}
            notched
            displayEmpty
            value={queueId}
            onChange={(e) => {
              setQueueId(Number(e.target.value) || '');
              setQueueMissing(false);
            }}
            renderValue={(v) => (!v ? <Box sx={{ color: 'text.secondary' }}>{t('tickets.newTicket.selectQueue')}</Box> : queues.find((q) => q.id === v)?.name)}
          >
            <MenuItem value="">
              <em>{t('tickets.newTicket.selectQueue')}</em>
            </MenuItem>
            {queues.map((q) => (
              <MenuItem key={q.id} value={q.id}>
                {q.name}
              </MenuItem>
            ))}
          </Select>
          {queueMissing && <FormHelperText>{t('tickets.newTicket.selectQueue')}</FormHelperText>}
        </FormControl>
        {connectionList.length > 1 && (
          <FormControl fullWidth>
            <InputLabel id="new-ticket-connection-label">{t('tickets.newTicket.connection')}</InputLabel>
            <Select
              labelId="new-ticket-connection-label"
              label={t('tickets.newTicket.connection')}
              value={chosenWhatsapp ?? ''}
              onChange={(e) => setWhatsappId(Number(e.target.value) || '')}
            >
              {connectionList.map((c) => (
                <MenuItem key={c.id} value={c.id}>
                  {c.name}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={create.isPending}>
          {t('tickets.newTicket.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={submit}
          disabled={!contact || create.isPending}
          startIcon={create.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('tickets.newTicket.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
