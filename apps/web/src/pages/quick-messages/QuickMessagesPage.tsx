import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { canEditQuickMessage, type QuickMessage } from '@balcao/contracts';
import { usePagedList } from '../../api/pagedList';
import { useUser } from '../../api/session';
import { ListPage, SearchField } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { QuickMessageDialog } from './QuickMessageDialog';
import { quickMessagesList, useDeleteQuickMessage } from './queries';

/** /quick-messages (spec 2 §2): the quick replies the user may see, with the modal; delete only where the user may edit. */
export function QuickMessagesPage() {
  const { t } = useTranslation();
  const me = useUser();
  const list = usePagedList(quickMessagesList);
  const remove = useDeleteQuickMessage();
  const [editing, setEditing] = useState<{ reply: QuickMessage | null } | null>(null);

  return (
    <ListPage
      testId="quick-messages-page"
      title={t('quickMessages.title')}
      onNearBottom={list.loadMore}
      actions={
        <>
          <SearchField value={list.search} onChange={list.setSearch} testId="quick-messages-search" />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ reply: null })} data-testid="quick-messages-add">
            {t('quickMessages.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="quick-messages-table"
        state={list.state}
        columns={[
          { label: t('quickMessages.columns.shortcode') },
          { label: t('quickMessages.columns.attachment') },
          { label: t('quickMessages.columns.general'), align: 'center', width: 100 },
          { label: t('quickMessages.columns.actions'), align: 'center', width: 120 },
        ]}
      >
        {list.records.map((reply) => (
          <TableRow key={reply.id} hover data-testid={`quick-message-row-${reply.id}`}>
            <TableCell>/{reply.shortcode}</TableCell>
            <TableCell data-testid="quick-message-attachment-name">
              {reply.mediaName ?? (
                <Typography variant="body2" color="text.secondary" component="span">
                  {t('quickMessages.noAttachment')}
                </Typography>
              )}
            </TableCell>
            <TableCell align="center">
              {reply.geral && <CheckCircleIcon color="success" fontSize="small" titleAccess={t('quickMessages.generalTick')} data-testid="quick-message-general" />}
            </TableCell>
            <RowActions
              id={reply.id}
              testIdPrefix="quick-message"
              onEdit={() => setEditing({ reply })}
              remove={
                canEditQuickMessage(reply, me)
                  ? {
                      title: t('quickMessages.confirmDelete.title', { shortcode: reply.shortcode }),
                      message: t('quickMessages.confirmDelete.message'),
                      deletedText: t('quickMessages.toasts.deleted'),
                      run: (id) => remove.mutateAsync(id),
                    }
                  : undefined
              }
            />
          </TableRow>
        ))}
      </ListTable>
      {editing && <QuickMessageDialog reply={editing.reply} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
