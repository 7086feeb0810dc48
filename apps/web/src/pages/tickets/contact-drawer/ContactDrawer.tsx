import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import BlockIcon from '@mui/icons-material/Block';
import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/Edit';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import type { Contact, Ticket } from '@balcao/contracts';
import { useBlockContact, useContact, useContactLive, useToggleAcceptAudio } from '../../../api/contacts';
import { useUser } from '../../../api/session';
import { apiUrl } from '../../../config';
import { toast, toastError } from '../../../components/toast';
import { ContactEditDialog } from './ContactEditDialog';
import { ContactNotes } from './ContactNotes';
import { ContactTags } from './ContactTags';
import { ExtraInfoList } from './ExtraInfoList';
import { KanbanStage } from './KanbanStage';
import { initials, visibleContact } from './contactView';

/** Spec 2 §9: the drawer is 320 px wide. */
export const CONTACT_DRAWER_WIDTH = 320;

interface Props {
  ticket: Ticket;
  open: boolean;
  onClose: () => void;
  /** The conversation has no room for a side panel: the drawer lays over it instead. */
  overlay?: boolean;
}

/**
 * The conversation's right contact drawer (spec 2 §2), 320 px: a panel beside
 * the messages on wide screens (the parent lays it out as the last item of a
 * row), a temporary drawer over them on narrow ones.
 */
export function ContactDrawer({ ticket, open, onClose, overlay = false }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md')) && !overlay;
  if (wide) {
    if (!open) return null;
    return (
      <Box
        component="aside"
        aria-label={t('contactDrawer.title')}
        data-testid="contact-drawer"
        sx={{ width: CONTACT_DRAWER_WIDTH, flexShrink: 0, height: '100%', borderLeft: 1, borderColor: 'divider', bgcolor: 'background.paper', display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <DrawerContent ticket={ticket} onClose={onClose} />
      </Box>
    );
  }
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { 'aria-label': t('contactDrawer.title'), sx: { width: CONTACT_DRAWER_WIDTH, maxWidth: '100vw' } } }}
    >
      <Box aria-label={t('contactDrawer.title')} data-testid="contact-drawer" sx={{ height: '100%', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <DrawerContent ticket={ticket} onClose={onClose} />
      </Box>
    </Drawer>
  );
}

function pictureUrl(url: string | null): string | undefined {
  if (!url) return undefined;
  return url.startsWith('/') ? `${apiUrl()}${url}` : url;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ px: 2, py: 1.5 }}>
      <Typography variant="overline" color="text.secondary" component="h3" sx={{ lineHeight: 2 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function DrawerContent({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const user = useUser();
  const query = useContact(ticket.contactId, ticket.contact);
  useContactLive(ticket.contactId);
  const [editing, setEditing] = useState(false);
  const contact: Contact = query.data ?? ticket.contact;
  const shown = visibleContact(user, contact);

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, minHeight: 56, borderBottom: 1, borderColor: 'divider', flexShrink: 0 }}>
        <Typography variant="subtitle1" component="h2" sx={{ flex: 1, fontWeight: 600 }}>
          {t('contactDrawer.title')}
        </Typography>
        <IconButton aria-label={t('contactDrawer.close')} onClick={onClose} size="small" data-testid="contact-drawer-close">
          <CloseIcon />
        </IconButton>
      </Box>
      <Box sx={{ flex: 1, overflowY: 'auto', minHeight: 0 }}>
        <ContactCard contact={contact} shown={shown} onEdit={() => setEditing(true)} />
        {query.isError && !query.isFetching && (
          <Typography variant="caption" color="error" sx={{ display: 'block', px: 2 }} data-testid="contact-load-error">
            {t('contactDrawer.loadError')}
          </Typography>
        )}
        <Divider />
        <Section title={t('contactDrawer.tags.title')}>
          <ContactTags contactId={contact.id} tags={contact.tags} />
        </Section>
        {user.company.plan?.useKanban === true && (
          <>
            <Divider />
            <Section title={t('kanban.stage.label')}>
              <KanbanStage ticket={ticket} />
            </Section>
          </>
        )}
        <Divider />
        <Section title={t('contactDrawer.notes.title')}>
          <ContactNotes ticketId={ticket.id} contactId={contact.id} />
        </Section>
        <Divider />
        <Section title={t('contactDrawer.extraInfo.title')}>
          <ExtraInfoList items={contact.extraInfo} />
        </Section>
      </Box>
      <ContactEditDialog contactId={contact.id} open={editing} onClose={() => setEditing(false)} />
    </>
  );
}

/** Picture, name, number, e-mail and the contact's own switches: edit, block/unblock, accept audio. */
function ContactCard({ contact, shown, onEdit }: { contact: Contact; shown: Contact; onEdit: () => void }) {
  const { t } = useTranslation();
  const block = useBlockContact();
  const audio = useToggleAcceptAudio();

  // The button stays enabled while saving (a disabled button would drop the keyboard focus); a second click waits.
  const toggleBlock = () => {
    if (block.isPending) return;
    const active = !contact.active;
    block.mutate(
      { id: contact.id, active },
      {
        onSuccess: () => toast.success(t(active ? 'contactDrawer.toasts.unblocked' : 'contactDrawer.toasts.blocked')),
        onError: toastError,
      },
    );
  };
  const toggleAudio = () => {
    audio.mutate(contact.id, {
      onSuccess: (c) => toast.success(t(c.acceptAudioMessage ? 'contactDrawer.toasts.audioOn' : 'contactDrawer.toasts.audioOff')),
      onError: toastError,
    });
  };

  return (
    <Stack spacing={1} sx={{ alignItems: 'center', px: 2, pt: 3, pb: 2, textAlign: 'center' }}>
      <Avatar
        src={pictureUrl(contact.urlPicture)}
        alt={t('contactDrawer.picture', { name: shown.name })}
        sx={{ width: 96, height: 96, fontSize: 36, bgcolor: 'primary.main', color: 'primary.contrastText' }}
        data-testid="contact-avatar"
      >
        {initials(shown.name)}
      </Avatar>
      <Typography variant="h6" component="p" sx={{ overflowWrap: 'anywhere', lineHeight: 1.3 }} data-testid="contact-name">
        {shown.name}
      </Typography>
      {!contact.active && <Chip size="small" color="error" icon={<BlockIcon />} label={t('contactDrawer.blocked')} data-testid="contact-blocked" />}
      <Box>
        <Typography variant="body2" color="text.secondary" aria-label={t('contactDrawer.number')} data-testid="contact-number">
          {shown.number}
        </Typography>
        {contact.email ? (
          <Typography
            variant="body2"
            component="a"
            href={`mailto:${contact.email}`}
            aria-label={t('contactDrawer.email')}
            sx={{ color: 'primary.main', overflowWrap: 'anywhere' }}
            data-testid="contact-email"
          >
            {contact.email}
          </Typography>
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }} data-testid="contact-email">
            {t('contactDrawer.noEmail')}
          </Typography>
        )}
      </Box>
      <Stack spacing={1} sx={{ pt: 1, width: '100%' }}>
        <Button variant="outlined" size="small" startIcon={<EditIcon />} onClick={onEdit} data-testid="contact-edit">
          {t('contactDrawer.edit')}
        </Button>
        <Button
          variant="outlined"
          size="small"
          color={contact.active ? 'error' : 'success'}
          startIcon={block.isPending ? <CircularProgress size={16} color="inherit" /> : contact.active ? <BlockIcon /> : <LockOpenIcon />}
          onClick={toggleBlock}
          data-testid="contact-block"
        >
          {contact.active ? t('contactDrawer.block') : t('contactDrawer.unblock')}
        </Button>
      </Stack>
      <FormControlLabel
        sx={{ alignSelf: 'flex-start', ml: 0 }}
        label={<Typography variant="body2">{t('contactDrawer.acceptAudio')}</Typography>}
        control={
          <Switch
            size="small"
            checked={contact.acceptAudioMessage}
            onChange={toggleAudio}
            disabled={audio.isPending}
            slotProps={{ input: { 'data-testid': 'contact-accept-audio' } as object }}
          />
        }
      />
    </Stack>
  );
}
