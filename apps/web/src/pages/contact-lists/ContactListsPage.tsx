import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import AddIcon from '@mui/icons-material/Add';
import PeopleIcon from '@mui/icons-material/People';
import type { ContactList } from '@balcao/contracts';
import { usePagedList } from '../../api/pagedList';
import { ListPage, SearchField } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { ContactListDialog } from './ContactListDialog';
import { contactListsList, useDeleteContactList } from './queries';
import './texts';

/** /contact-lists (spec 3 §2): search, add, the lists with their contact count, edit, delete, and each list's items. */
export function ContactListsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = usePagedList(contactListsList);
  const remove = useDeleteContactList();
  const [editing, setEditing] = useState<{ list: ContactList | null } | null>(null);
  return (
    <ListPage
      testId="contact-lists-page"
      title={t('contactLists.title')}
      onNearBottom={list.loadMore}
      actions={
        <>
          <SearchField value={list.search} onChange={list.setSearch} testId="contact-lists-search" />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ list: null })} data-testid="contact-lists-add">
            {t('contactLists.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="contact-lists-table"
        state={list.state}
        columns={[
          { label: t('contactLists.columns.name') },
          { label: t('contactLists.columns.contacts'), align: 'center', width: 120 },
          { label: t('contactLists.columns.actions'), align: 'center', width: 160 },
        ]}
      >
        {list.records.map((row) => (
          <TableRow key={row.id} hover data-testid={`contact-list-row-${row.id}`}>
            <TableCell>{row.name}</TableCell>
            <TableCell align="center" data-testid="contact-list-count">
              {row.contactsCount}
            </TableCell>
            <RowActions
              id={row.id}
              testIdPrefix="contact-list"
              onEdit={() => setEditing({ list: row })}
              extra={[{ label: t('contactLists.open'), icon: <PeopleIcon fontSize="small" />, onClick: () => void navigate(`/contact-lists/${row.id}/contacts`), testId: `contact-list-open-${row.id}` }]}
              remove={{
                title: t('contactLists.confirmDelete.title', { name: row.name }),
                message: t('contactLists.confirmDelete.message'),
                deletedText: t('contactLists.toasts.deleted'),
                run: (id) => remove.mutateAsync(id),
              }}
            />
          </TableRow>
        ))}
      </ListTable>
      {editing && <ContactListDialog list={editing.list} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
