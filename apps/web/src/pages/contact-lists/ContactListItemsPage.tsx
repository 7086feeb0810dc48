import { useRef, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CancelIcon from '@mui/icons-material/Cancel';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { can, type ContactListItem } from '@balcao/contracts';
import { usePagedList } from '../../api/pagedList';
import { useUser } from '../../api/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ListPage, SearchField } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { toast, toastError } from '../../components/toast';
import { ContactListItemDialog } from './ContactListItemDialog';
import { contactListItemsList, useContactList, useDeleteContactListItem, useUploadContactList } from './queries';
import './texts';

function ValidIcon({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation();
  const [label, icon] =
    valid === true
      ? [t('contactLists.items.valid'), <CheckCircleIcon key="v" color="success" fontSize="small" />]
      : valid === false
        ? [t('contactLists.items.invalid'), <CancelIcon key="i" color="error" fontSize="small" />]
        : [t('contactLists.items.unknown'), <HelpOutlineIcon key="u" color="action" fontSize="small" />];
  return (
    <Tooltip title={label}>
      <span role="img" aria-label={label} data-testid="contact-list-item-valid" data-valid={String(valid)}>
        {icon}
      </span>
    </Tooltip>
  );
}

/**
 * /contact-lists/{id}/contacts (spec 3 §2): the list's name as title, search, Lists, Import
 * (.xls/.xlsx, then confirm) and Add; each item with its WhatsApp check, edit, and delete for
 * holders of contacts-page:deleteContact.
 */
export function ContactListItemsPage() {
  const { t } = useTranslation();
  const listId = Number(useParams().contactListId);
  const user = useUser();
  const mayDelete = !!user && (user.super || can(user.profile, 'contacts-page:deleteContact'));
  const listInfo = useContactList(listId);
  const items = usePagedList(contactListItemsList(listId));
  const remove = useDeleteContactListItem(listId);
  const upload = useUploadContactList(listId);
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [editing, setEditing] = useState<{ item: ContactListItem | null } | null>(null);

  const runImport = async () => {
    if (!file) return;
    try {
      const result = await upload.mutateAsync(file);
      toast.success(t('contactLists.items.imported', result));
    } catch (err) {
      toastError(err);
    } finally {
      setFile(null);
    }
  };

  return (
    <ListPage
      testId="contact-list-items-page"
      title={listInfo.data?.name ?? t('contactLists.title')}
      onNearBottom={items.loadMore}
      actions={
        <>
          <SearchField value={items.search} onChange={items.setSearch} testId="contact-list-items-search" />
          <Button variant="outlined" startIcon={<ArrowBackIcon />} component={RouterLink} to="/contact-lists" data-testid="contact-list-items-back">
            {t('contactLists.items.back')}
          </Button>
          <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => fileInput.current?.click()} data-testid="contact-list-items-import">
            {t('contactLists.items.import')}
          </Button>
          <input
            ref={fileInput}
            type="file"
            hidden
            accept=".xls,.xlsx"
            data-testid="contact-list-items-file"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              e.target.value = '';
            }}
          />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ item: null })} data-testid="contact-list-items-add">
            {t('contactLists.items.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="contact-list-items-table"
        state={items.state}
        columns={[
          { label: t('contactLists.items.columns.valid'), align: 'center', width: 90 },
          { label: t('contactLists.items.columns.name') },
          { label: t('contactLists.items.columns.number') },
          { label: t('contactLists.items.columns.email') },
          { label: t('contactLists.items.columns.actions'), align: 'center', width: 120 },
        ]}
      >
        {items.records.map((item) => (
          <TableRow key={item.id} hover data-testid={`contact-list-item-row-${item.id}`}>
            <TableCell align="center">
              <ValidIcon valid={item.isWhatsappValid} />
            </TableCell>
            <TableCell>{item.name}</TableCell>
            <TableCell>{item.number}</TableCell>
            <TableCell>{item.email}</TableCell>
            <RowActions
              id={item.id}
              testIdPrefix="contact-list-item"
              onEdit={() => setEditing({ item })}
              remove={
                mayDelete
                  ? {
                      title: t('contactLists.items.confirmDelete.title', { name: item.name }),
                      message: t('contactLists.items.confirmDelete.message'),
                      deletedText: t('contactLists.items.toasts.deleted'),
                      run: (id) => remove.mutateAsync(id),
                    }
                  : undefined
              }
            />
          </TableRow>
        ))}
      </ListTable>
      {editing && <ContactListItemDialog listId={listId} item={editing.item} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={!!file}
        title={t('contactLists.items.importConfirm.title')}
        confirmLabel={t('contactLists.items.importConfirm.confirm')}
        onClose={() => setFile(null)}
        onConfirm={runImport}
      >
        {t('contactLists.items.importConfirm.message', { file: file?.name ?? '' })}
      </ConfirmDialog>
    </ListPage>
  );
}
