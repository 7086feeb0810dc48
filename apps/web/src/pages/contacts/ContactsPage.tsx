import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { can, type Contact } from '@balcao/contracts';
import { contactsList, useBlockContact, useDeleteContact } from '../../api/contacts';
import { usePagedList } from '../../api/pagedList';
import { useUser } from '../../api/session';
import { useTagsList, useTagsLive } from '../../api/tags';
import { ListPage, SearchField } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { toast, toastError } from '../../components/toast';
import { ContactEditDialog } from '../tickets/contact-drawer/ContactEditDialog';
import type { ExistingTicket } from '../tickets/list/conflict';
import { NewTicketDialog } from '../tickets/list/NewTicketDialog';
import { TicketAlreadyOpenDialog } from '../tickets/list/TicketAlreadyOpenDialog';
import { ImportExportMenu } from './ImportExportMenu';
import { brazilianMask } from './phoneMask';

const CHANNEL_ICONS: Record<Contact['channel'], ReactNode> = {
  whatsapp: <WhatsAppIcon fontSize="small" />,
  facebook: <FacebookIcon fontSize="small" />,
  instagram: <InstagramIcon fontSize="small" />,
};

/**
 * /contacts (spec 2 §2 "Contacts page"): search, tag filter, infinite scroll, add/edit, block,
 * delete (contacts-page:deleteContact), import/export, and each contact's channel button.
 */
export function ContactsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const tags = useTagsList(0);
  useTagsLive();
  const [tagIds, setTagIds] = useState<number[]>([]);
  const list = usePagedList(useMemo(() => contactsList(tagIds), [tagIds]));
  const block = useBlockContact();
  const remove = useDeleteContact();
  const [dialog, setDialog] = useState<{ contactId: number | null } | null>(null);
  const [ticketFor, setTicketFor] = useState<Contact | null>(null);
  const [heldBy, setHeldBy] = useState<ExistingTicket | null>(null);
  const mayDelete = user.super || can(user.profile, 'contacts-page:deleteContact');

  const toggleBlock = (contact: Contact) =>
    block.mutate(
      { id: contact.id, active: !contact.active },
      {
        onSuccess: (saved) => toast.success(t(saved.active ? 'contacts.toasts.unblocked' : 'contacts.toasts.blocked')),
        onError: toastError,
      },
    );

  return (
    <ListPage
      testId="contacts-page"
      title={t('contacts.title')}
      onNearBottom={list.loadMore}
      actions={
        <>
          <Autocomplete
            multiple
            size="small"
            limitTags={2}
            sx={{ minWidth: 220 }}
            options={tags.data ?? []}
            value={(tags.data ?? []).filter((tag) => tagIds.includes(tag.id))}
            onChange={(_e, chosen) => setTagIds(chosen.map((tag) => tag.id))}
            getOptionLabel={(tag) => tag.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            renderInput={(params) => <TextField {...params} placeholder={t('contacts.tagFilter')} slotProps={{ htmlInput: { ...params.inputProps, 'aria-label': t('contacts.tagFilter'), 'data-testid': 'contacts-tag-filter' } }} />}
          />
          <SearchField value={list.search} onChange={list.setSearch} testId="contacts-search" />
          <ImportExportMenu mayExport={mayDelete} onImportSheet={() => navigate('/contacts/import')} />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ contactId: null })} data-testid="contacts-add">
            {t('contacts.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="contacts-table"
        state={list.state}
        columns={[
          { label: '', width: 56 },
          { label: t('contacts.columns.name') },
          { label: t('contacts.columns.number') },
          { label: t('contacts.columns.email') },
          { label: t('contacts.columns.tags') },
          { label: t('contacts.columns.actions'), align: 'center' },
        ]}
      >
        {list.records.map((contact) => (
          <TableRow key={contact.id} hover data-testid={`contact-row-${contact.id}`} data-active={contact.active}>
            <TableCell>
              <Avatar src={contact.urlPicture ?? undefined} alt="" sx={{ width: 32, height: 32, fontSize: 14 }}>
                {contact.name.charAt(0).toUpperCase()}
              </Avatar>
            </TableCell>
            <TableCell>{contact.name}</TableCell>
            <TableCell data-testid="contact-number">{brazilianMask(contact.number, contact.channel)}</TableCell>
            <TableCell>{contact.email}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
                {contact.tags.map((tag) => (
                  <Chip key={tag.id} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: (theme) => theme.palette.getContrastText(tag.color) }} />
                ))}
              </Stack>
            </TableCell>
            <RowActions
              id={contact.id}
              testIdPrefix="contact"
              onEdit={() => setDialog({ contactId: contact.id })}
              extra={[
                {
                  label: t(contact.active ? 'contacts.actions.openTicket' : 'contacts.actions.openTicketBlocked'),
                  icon: CHANNEL_ICONS[contact.channel],
                  onClick: () => setTicketFor(contact),
                  testId: `contact-channel-${contact.id}`,
                  disabled: !contact.active,
                },
                {
                  label: t(contact.active ? 'contacts.actions.block' : 'contacts.actions.unblock'),
                  icon: contact.active ? <BlockIcon fontSize="small" /> : <CheckCircleOutlineIcon fontSize="small" />,
                  onClick: () => toggleBlock(contact),
                  testId: `contact-block-${contact.id}`,
                },
              ]}
              remove={
                mayDelete
                  ? {
                      title: t('contacts.confirmDelete.title', { name: contact.name }),
                      message: t('contacts.confirmDelete.message'),
                      deletedText: t('contacts.toasts.deleted'),
                      run: (id) => remove.mutateAsync(id),
                    }
                  : undefined
              }
            />
          </TableRow>
        ))}
      </ListTable>
      {dialog && (
        <ContactEditDialog
          open
          contactId={dialog.contactId}
          title={t(dialog.contactId === null ? 'contacts.addTitle' : 'contacts.editTitle')}
          onClose={() => setDialog(null)}
        />
      )}
      {ticketFor && <NewTicketDialog open contact={ticketFor} onClose={() => setTicketFor(null)} onHeldByOther={setHeldBy} />}
      <TicketAlreadyOpenDialog ticket={heldBy} onClose={() => setHeldBy(null)} />
    </ListPage>
  );
}
