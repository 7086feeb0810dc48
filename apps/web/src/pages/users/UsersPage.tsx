import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import { SEARCH_DEBOUNCE_MS, type User } from '@balcao/contracts';
import { useUser } from '../../api/session';
import { avatarUrl, useDeleteUser, useUsersLive, useUsersPages } from '../../api/users';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { useDebouncedValue } from '../../components/form';
import { ListPage, SearchField } from '../../components/ListPage';
import { LoadingMoreRow, TableStateRow } from '../../components/ListStates';
import { UserDialog } from './UserDialog';

const COLUMNS = 5;

/** /users (admin): searchable, infinitely scrolled users table with the user dialog (spec 3 §2). */
export function UsersPage() {
  const { t } = useTranslation();
  const me = useUser();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const pages = useUsersPages(debounced);
  useUsersLive();
  const remove = useDeleteUser();
  const [dialog, setDialog] = useState<{ userId: number | null } | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

  const users = pages.data?.pages.flatMap((p) => p.users) ?? [];
  const loadMore = () => {
    if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  };

  return (
    <ListPage
      testId="users-page"
      title={t('users.title')}
      onNearBottom={loadMore}
      actions={
        <>
          <SearchField value={search} onChange={setSearch} testId="users-search" />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ userId: null })} data-testid="users-add">
            {t('users.add')}
          </Button>
        </>
      }
    >
      <Table size="small" stickyHeader data-testid="users-table">
        <TableHead>
          <TableRow>
            <TableCell>{t('users.columns.name')}</TableCell>
            <TableCell>{t('users.columns.email')}</TableCell>
            <TableCell align="center">{t('users.columns.profile')}</TableCell>
            <TableCell align="center">{t('users.columns.workHours')}</TableCell>
            <TableCell align="center">{t('users.columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {users.map((user) => (
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
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <Tooltip title={t('ui.actions.edit')}>
                  <IconButton size="small" onClick={() => setDialog({ userId: user.id })} data-testid={`user-edit-${user.id}`} aria-label={t('ui.actions.edit')}>
                    <EditIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                {/* The super user and oneself cannot be deleted here (the server refuses both). */}
                {!user.super && user.id !== me.id && (
                  <Tooltip title={t('ui.actions.delete')}>
                    <IconButton size="small" onClick={() => setDeleting(user)} data-testid={`user-delete-${user.id}`} aria-label={t('ui.actions.delete')}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
              </TableCell>
            </TableRow>
          ))}
          <TableStateRow
            colSpan={COLUMNS}
            loading={pages.isPending}
            error={pages.isError && users.length === 0}
            empty={!pages.isPending && !pages.isError && users.length === 0}
            onRetry={() => void pages.refetch()}
          />
          <LoadingMoreRow colSpan={COLUMNS} show={pages.isFetchingNextPage} />
        </TableBody>
      </Table>
      {dialog && <UserDialog open userId={dialog.userId} onClose={() => setDialog(null)} />}
      <ConfirmDeleteDialog
        record={deleting}
        title={t('users.confirmDelete.title', { name: deleting?.name ?? '' })}
        deletedText={t('users.toasts.deleted')}
        remove={(id) => remove.mutateAsync(id)}
        onClose={() => setDeleting(null)}
      >
        {t('users.confirmDelete.message')}
      </ConfirmDeleteDialog>
    </ListPage>
  );
}
