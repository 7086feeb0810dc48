import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import AddIcon from '@mui/icons-material/Add';
import type { Prompt } from '@balcao/contracts';
import { ListPage } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { PromptDialog } from './PromptDialog';
import { useDeletePrompt, usePrompts, usePromptsLive } from './queries';
import './texts';

/** /prompts (admin, plan flag useOpenAi; spec 3 §2 "AI prompts page"): name, queue, max tokens, and the prompt dialog. */
export function PromptsPage() {
  const { t } = useTranslation();
  const prompts = usePrompts();
  usePromptsLive();
  const remove = useDeletePrompt();
  const [editing, setEditing] = useState<{ prompt: Prompt | null } | null>(null);
  const list = prompts.data ?? [];

  return (
    <ListPage
      testId="prompts-page"
      title={t('prompts.title')}
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ prompt: null })} data-testid="prompts-add">
          {t('prompts.add')}
        </Button>
      }
    >
      <ListTable
        testId="prompts-table"
        state={{
          loading: prompts.isPending,
          error: prompts.isError,
          empty: prompts.isSuccess && list.length === 0,
          emptyText: t('prompts.empty'),
          onRetry: () => void prompts.refetch(),
        }}
        columns={[
          { label: t('prompts.columns.name') },
          { label: t('prompts.columns.queue') },
          { label: t('prompts.columns.maxTokens'), align: 'center', width: 160 },
          { label: t('prompts.columns.actions'), align: 'center', width: 120 },
        ]}
      >
        {list.map((prompt) => (
          <TableRow key={prompt.id} hover data-testid={`prompt-row-${prompt.id}`}>
            <TableCell data-testid="prompt-name">{prompt.name}</TableCell>
            <TableCell data-testid="prompt-queue">{prompt.queue?.name ?? ''}</TableCell>
            <TableCell align="center" data-testid="prompt-maxTokens">
              {prompt.maxTokens}
            </TableCell>
            <RowActions
              id={prompt.id}
              testIdPrefix="prompt"
              onEdit={() => setEditing({ prompt })}
              remove={{
                title: t('prompts.confirmDelete.title', { name: prompt.name }),
                message: t('prompts.confirmDelete.message'),
                deletedText: (result) => (result as { message: string }).message,
                run: (id) => remove.mutateAsync(id),
              }}
            />
          </TableRow>
        ))}
      </ListTable>
      {editing && <PromptDialog prompt={editing.prompt} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
