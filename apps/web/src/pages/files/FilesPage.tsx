import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import AddIcon from '@mui/icons-material/Add';
import type { FileList } from '@balcao/contracts';
import { fileListPages, useDeleteFileList } from '../../api/fileLists';
import { usePagedList } from '../../api/pagedList';
import { ListPage, SearchField } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { FileListDialog } from './FileListDialog';
import './texts';

/** /files (spec 3 §2 "File lists page"): search, infinite scroll, add, edit and delete file lists. */
export function FilesPage() {
  const { t } = useTranslation();
  const list = usePagedList(fileListPages);
  const remove = useDeleteFileList();
  const [editing, setEditing] = useState<{ record: FileList | null } | null>(null);

  return (
    <ListPage
      testId="files-page"
      title={t('fileLists.title')}
      onNearBottom={list.loadMore}
      actions={
        <>
          <SearchField value={list.search} onChange={list.setSearch} testId="files-search" />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ record: null })} data-testid="files-add">
            {t('fileLists.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="files-table"
        state={list.state}
        columns={[
          { label: t('fileLists.columns.name') },
          { label: t('fileLists.columns.options'), align: 'center', width: 120 },
          { label: t('fileLists.columns.actions'), align: 'center', width: 120 },
        ]}
      >
        {list.records.map((record) => (
          <TableRow key={record.id} hover data-testid={`file-list-row-${record.id}`}>
            <TableCell>{record.name}</TableCell>
            <TableCell align="center" data-testid="file-list-options">
              {record.options.length}
            </TableCell>
            <RowActions
              id={record.id}
              testIdPrefix="file-list"
              onEdit={() => setEditing({ record })}
              remove={{
                title: t('fileLists.confirmDelete.title', { name: record.name }),
                message: t('fileLists.confirmDelete.message'),
                deletedText: t('fileLists.toasts.deleted'),
                run: (id) => remove.mutateAsync(id),
              }}
            />
          </TableRow>
        ))}
      </ListTable>
      {editing && <FileListDialog record={editing.record} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
