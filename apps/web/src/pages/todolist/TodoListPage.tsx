import './texts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import { PageShell } from '../../components/PageShell';
import { loadTasks, removeTask, saveTasks, upsertTask, type TodoTask } from './tasks';

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString();
};

/** /todolist (spec 2 §2): the user's own tasks, kept in this browser's local storage only. */
export function TodoListPage() {
  const { t } = useTranslation();
  const [tasks, setTasks] = useState<TodoTask[]>(loadTasks);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<number | null>(null);

  const store = (next: TodoTask[]) => {
    setTasks(next);
    saveTasks(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    store(upsertTask(tasks, editing, text));
    setText('');
    setEditing(null);
  };

  return (
    <PageShell title={t('todolist.title')}>
      <Stack component="form" direction="row" spacing={1} onSubmit={submit} sx={{ alignItems: 'center' }}>
        <TextField
          size="small"
          fullWidth
          label={t('todolist.newTask')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'todo-input' } }}
        />
        <Button type="submit" variant="contained" data-testid="todo-submit">
          {editing === null ? t('todolist.add') : t('todolist.save')}
        </Button>
        {editing !== null && (
          <Button
            onClick={() => {
              setEditing(null);
              setText('');
            }}
          >
            {t('todolist.cancelEdit')}
          </Button>
        )}
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {t('todolist.note')}
      </Typography>
      {tasks.length === 0 ? (
        <Typography color="text.secondary" sx={{ mt: 2 }} data-testid="todo-empty">
          {t('todolist.empty')}
        </Typography>
      ) : (
        <List data-testid="todo-list">
          {tasks.map((task, i) => (
            <ListItem
              key={`${task.createdAt}-${i}`}
              divider
              sx={editing === i ? { bgcolor: 'action.selected' } : undefined}
              data-testid="todo-item"
              secondaryAction={
                <>
                  <Tooltip title={t('todolist.edit')}>
                    <IconButton
                      aria-label={t('todolist.edit')}
                      onClick={() => {
                        setEditing(i);
                        setText(task.text);
                      }}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('todolist.remove')}>
                    <IconButton
                      aria-label={t('todolist.remove')}
                      onClick={() => {
                        store(removeTask(tasks, i));
                        if (editing === i) {
                          setEditing(null);
                          setText('');
                        }
                      }}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </>
              }
            >
              <ListItemText primary={task.text} secondary={t('todolist.updated', { when: when(task.updatedAt) })} sx={{ pr: 10, wordBreak: 'break-word' }} />
            </ListItem>
          ))}
        </List>
      )}
    </PageShell>
  );
}
