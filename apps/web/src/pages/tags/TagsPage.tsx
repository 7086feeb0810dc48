import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { getContrastRatio } from '@mui/material/styles';
import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import type { Tag } from '@balcao/contracts';
import { usePagedList } from '../../api/pagedList';
import { tagsPages, useDeleteTag, useTagsLive } from '../../api/tags';
import { ListPage, SearchField } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { TagDialog } from './TagDialog';

/** Black or white, whichever reads better on `color` (one of them always passes WCAG AA); white for a colour not in hex/rgb form. */
function textOn(color: string): string {
  try {
    return getContrastRatio(color, '#000') >= getContrastRatio(color, '#fff') ? '#000' : '#fff';
  } catch {
    return '#fff';
  }
}

/** A tag's name on its own colour, readable whatever the colour. */
export function TagChip({ tag }: { tag: Pick<Tag, 'name' | 'color'> }) {
  return <Chip size="small" label={tag.name} sx={{ bgcolor: tag.color, color: textOn(tag.color), fontWeight: 600 }} />;
}

/**
 * /tags (kanban 0) and /TagsKanban (kanban 1, spec 2 §2 "Kanban tags"): searchable, infinitely
 * scrolled tags with their chip and counts, the shared tag dialog and delete with confirmation.
 */
export function TagsPage({ kanban }: { kanban: 0 | 1 }) {
  const { t } = useTranslation();
  const list = usePagedList(tagsPages[kanban]);
  useTagsLive();
  const remove = useDeleteTag();
  const [editing, setEditing] = useState<{ tag: Tag | null } | null>(null);
  const prefix = kanban ? 'tags-kanban' : 'tags';

  return (
    <ListPage
      testId={`${prefix}-page`}
      title={kanban ? t('tags.kanbanTitle') : t('tags.title')}
      onNearBottom={list.loadMore}
      actions={
        <>
          <SearchField value={list.search} onChange={list.setSearch} testId={`${prefix}-search`} />
          {kanban === 1 && (
            <Button variant="outlined" startIcon={<ArrowBackIcon />} component={RouterLink} to="/Kanban" data-testid="tags-back-to-kanban">
              {t('tags.backToKanban')}
            </Button>
          )}
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ tag: null })} data-testid={`${prefix}-add`}>
            {kanban ? t('tags.addLane') : t('tags.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId={`${prefix}-table`}
        state={list.state}
        columns={[
          { label: t('tags.columns.name') },
          { label: t('tags.columns.tickets'), align: 'center', width: 120 },
          ...(kanban ? [] : [{ label: t('tags.columns.contacts'), align: 'center' as const, width: 120 }]),
          { label: t('tags.columns.actions'), align: 'center', width: 120 },
        ]}
      >
        {list.records.map((tag) => (
          <TableRow key={tag.id} hover data-testid={`tag-row-${tag.id}`}>
            <TableCell>
              <TagChip tag={tag} />
            </TableCell>
            <TableCell align="center" data-testid="tag-tickets">
              {tag.ticketTags ?? 0}
            </TableCell>
            {!kanban && (
              <TableCell align="center" data-testid="tag-contacts">
                {tag.contactTags ?? 0}
              </TableCell>
            )}
            <RowActions
              id={tag.id}
              testIdPrefix="tag"
              onEdit={() => setEditing({ tag })}
              remove={{
                title: t('tags.confirmDelete.title', { name: tag.name }),
                message: t('tags.confirmDelete.message'),
                deletedText: t('tags.toasts.deleted'),
                run: (id) => remove.mutateAsync(id),
              }}
            />
          </TableRow>
        ))}
      </ListTable>
      {editing && <TagDialog tag={editing.tag} kanban={kanban} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
