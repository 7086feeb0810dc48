import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import AddIcon from '@mui/icons-material/Add';
import { useUser } from '../../api/session';
import { usePagedList } from '../../api/pagedList';
import { avatarUrl, useDeleteUser, usersList } from '../../api/users';
import { ListPage, SearchField } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { UserDialog } from './UserDialog';

/** /users (admin): searchable, infinitely scrolled users table with the user dialog (spec 3 §2). */
export function UsersPage() {
  const { t } = useTranslation();
  const me = useUser();
  const list = usePagedList(usersList);
  const remove = useDeleteUser();
  const [dialog, setDialog] = useState<{ userId: number | null } | null>(null);

  return (
    <ListPage
      testId="users-page"
      title={t('users.title')}
      onNearBottom={list.loadMore}
      actions={
        <>
          <SearchField value={list.search} onChange={list.setSearch} testId="users-search" />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ userId: null })} data-testid="users-add">
            {t('users.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="users-table"
        state={list.state}
        columns={[
          { label: t('users.columns.name') },
          { label: t('users.columns.email') },
          { label: t('users.columns.profile'), align: 'center' },
          { label: t('users.columns.workHours'), align: 'center' },
          { label: t('users.columns.actions'), align: 'center' },
        ]}
      >
        {list.records.map((user) => (
          <TableRow key={user.id} hover data-testid={`user-row-${user.id}`}>
            <TableCell>
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                <Avatar src={avatarUrl(user)} sx={{ width: 28, height: 28, fontSize: 14 }}>
                  {user.name.charAt(0).toUpperCase()}
                </Avatar>
                <span>{user.name}</span>
              </Stack>
            </TableCell>
            <TableCell>{user.email}</TableCell>
            <TableCell align="center">{t(`users.profiles.${user.profile}`)}</TableCell>
            <TableCell align="center">
              {user.startWork} – {user.endWork}
            </TableCell>
            <RowActions
              id={user.id}
              testIdPrefix="user"
              onEdit={() => setDialog({ userId: user.id })}
              // The super user and oneself cannot be deleted here (the server refuses both).
              remove={
                user.super || user.id === me.id
                  ? undefined
                  : {
                      title: t('users.confirmDelete.title', { name: user.name }),
                      message: t('users.confirmDelete.message'),
                      deletedText: t('users.toasts.deleted'),
                      run: (id) => remove.mutateAsync(id),
                    }
              }
            />
          </TableRow>
        ))}
      </ListTable>
      {dialog && <UserDialog open userId={dialog.userId} onClose={() => setDialog(null)} />}
    </ListPage>
  );
}
