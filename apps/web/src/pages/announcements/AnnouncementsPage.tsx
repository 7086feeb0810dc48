import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { Announcement } from '@balcao/contracts';
import { PRIORITY_COLORS } from '../../api/announcements';
import { usePagedList } from '../../api/pagedList';
import { ListPage, SearchField } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { AnnouncementDialog } from './AnnouncementDialog';
import { announcementsList, useDeleteAnnouncement } from './queries';

/** /announcements (spec 3 §2, super user; the route's `SuperOnly` redirects everyone else): search, add, the table. */
export function AnnouncementsPage() {
  const { t } = useTranslation();
  const list = usePagedList(announcementsList);
  const remove = useDeleteAnnouncement();
  const [editing, setEditing] = useState<{ announcement: Announcement | null } | null>(null);

  return (
    <ListPage
      testId="announcements-page"
      title={t('announcements.title')}
      onNearBottom={list.loadMore}
      actions={
        <>
          <SearchField value={list.search} onChange={list.setSearch} testId="announcements-search" />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ announcement: null })} data-testid="announcements-add">
            {t('announcements.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="announcements-table"
        state={list.state}
        columns={[
          { label: t('announcements.columns.title') },
          { label: t('announcements.columns.priority'), align: 'center', width: 120 },
          { label: t('announcements.columns.attachment') },
          { label: t('announcements.columns.status'), align: 'center', width: 110 },
          { label: t('announcements.columns.actions'), align: 'center', width: 120 },
        ]}
      >
        {list.records.map((a) => (
          <TableRow key={a.id} hover data-testid={`announcement-row-${a.id}`}>
            <TableCell>{a.title}</TableCell>
            <TableCell align="center">
              <Chip size="small" label={t(`announcements.priority.${a.priority}`)} sx={{ bgcolor: PRIORITY_COLORS[a.priority], color: '#fff' }} />
            </TableCell>
            <TableCell>
              {a.mediaName ?? (
                <Typography variant="body2" color="text.secondary" component="span">
                  {t('announcements.noAttachment')}
                </Typography>
              )}
            </TableCell>
            <TableCell align="center">{a.status ? t('announcements.status.active') : t('announcements.status.inactive')}</TableCell>
            <RowActions
              id={a.id}
              testIdPrefix="announcement"
              onEdit={() => setEditing({ announcement: a })}
              remove={{
                title: t('announcements.confirmDelete.title', { title: a.title }),
                message: t('announcements.confirmDelete.message'),
                deletedText: t('announcements.toasts.deleted'),
                run: (id) => remove.mutateAsync(id),
              }}
            />
          </TableRow>
        ))}
      </ListTable>
      {editing && <AnnouncementDialog announcement={editing.announcement} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
