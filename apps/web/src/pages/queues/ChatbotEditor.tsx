import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CHATBOT_OPTION_TYPES, type ChatbotOptionType, type Queue } from '@balcao/contracts';
import { fileListPages } from '../../api/fileLists';
import { queueIntegrationPages } from '../../api/queueIntegrations';
import { RecordSelect } from '../../components/fields/RecordSelect';
import { BotUserPicker } from './BotUserPicker';
import { blankOption, flatRows, optionAt, updateAt, type EditorOption, type OptionPath, type OptionProblem } from './chatbot-tree';
import './bot-texts';

interface Props {
  value: EditorOption[];
  onChange: (next: EditorOption[]) => void;
  selected: OptionPath | null;
  onSelect: (path: OptionPath | null) => void;
  /** The problem of the selected option found at save, shown on its field. */
  problem: OptionProblem | null;
  /** The other queues a `queue` option may lead to. */
  queues: Queue[];
  /** The plan's useIntegrations: without it the integration type is not offered. */
  integrationsAllowed: boolean;
}

/** The queue's chatbot option tree: select an option in the list, edit it on the right; nested options at any depth. */
export function ChatbotEditor({ value, onChange, selected, onSelect, problem, queues, integrationsAllowed }: Props) {
  const { t } = useTranslation();
  const rows = flatRows(value);
  const current = selected ? optionAt(value, selected) : undefined;

  const edit = (patch: Partial<EditorOption>) => selected && onChange(updateAt(value, selected, (o) => ({ ...o, ...patch })));
  const addTop = () => {
    onChange([...value, blankOption(t('queueBot.newOption'))]);
    onSelect([value.length]);
  };
  const addChild = () => {
    if (!selected || !current) return;
    onChange(updateAt(value, selected, (o) => ({ ...o, options: [...o.options, blankOption(t('queueBot.newOption'))] })));
    onSelect([...selected, current.options.length]);
  };
  const remove = () => {
    if (!selected) return;
    onChange(updateAt(value, selected, () => null));
    onSelect(null);
  };
  const types = CHATBOT_OPTION_TYPES.filter((type) => type !== 'integration' || integrationsAllowed || current?.queueType === 'integration');
  const problemText = (p: OptionProblem) => (problem === p ? t(`queueBot.problems.${p}`) : undefined);

  return (
    <Box component="section" aria-labelledby="bot-editor-title" data-testid="bot-editor">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id="bot-editor-title" component="h3" variant="subtitle1">
          {t('queueBot.title')}
        </Typography>
        <Button size="small" onClick={addTop} data-testid="bot-add-option">
          {t('queueBot.addOption')}
        </Button>
      </Stack>
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('queueBot.empty')}
        </Typography>
      ) : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <List dense sx={{ minWidth: 200, border: 1, borderColor: 'divider', borderRadius: 1, py: 0 }} aria-label={t('queueBot.title')}>
            {rows.map(({ option, path, label }) => (
              <ListItem key={option.key} disablePadding>
                <ListItemButton
                  selected={selected?.join('.') === path.join('.')}
                  aria-current={selected?.join('.') === path.join('.') ? 'true' : undefined}
                  onClick={() => onSelect(path)}
                  sx={{ pl: 1 + 2 * (path.length - 1) }}
                  data-testid={`bot-option-${label}`}
                >
                  <ListItemText primary={`${label} – ${option.name || '…'}`} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
          <Stack spacing={2} sx={{ flex: 1, pt: 1 }}>
            {!current ? (
              <Typography variant="body2" color="text.secondary">
                {t('queueBot.selectHint')}
              </Typography>
            ) : (
              <>
                <TextField
                  size="small"
                  label={t('queueBot.name')}
                  value={current.name}
                  required
                  error={!!problemText('nameShort')}
                  helperText={problemText('nameShort')}
                  onChange={(e) => edit({ name: e.target.value })}
                  inputProps={{ 'data-testid': 'bot-option-name' }}
                />
                <TextField
                  size="small"
                  label={t('queueBot.message')}
                  value={current.greetingMessage}
                  multiline
                  minRows={2}
                  error={!!problemText('messageRequired')}
                  helperText={problemText('messageRequired')}
                  onChange={(e) => edit({ greetingMessage: e.target.value })}
                  inputProps={{ 'data-testid': 'bot-option-message' }}
                />
                <TextField
                  select
                  size="small"
                  label={t('queueBot.queueType')}
                  value={current.queueType}
                  onChange={(e) => edit({ queueType: e.target.value as ChatbotOptionType })}
                  data-testid="bot-option-type"
                >
                  {types.map((type) => (
                    <MenuItem key={type} value={type} data-testid={`bot-option-type-${type}`}>
                      {t(`queueBot.types.${type}`)}
                    </MenuItem>
                  ))}
                </TextField>
                {current.queueType === 'queue' && (
                  <TargetSelect label={t('queueBot.targetQueue')} value={current.optQueueId} options={queues} error={problemText('targetRequired')} onChange={(id) => edit({ optQueueId: id })} testId="bot-option-queue" />
                )}
                {current.queueType === 'attendent' && <BotUserPicker userId={current.optUserId} onChange={(id) => edit({ optUserId: id })} error={problemText('targetRequired')} />}
                {current.queueType === 'integration' && (
                  <RecordSelect
                    source={queueIntegrationPages}
                    enabled={integrationsAllowed}
                    label={t('queueBot.targetIntegration')}
                    required
                    value={current.optIntegrationId}
                    error={!!problemText('targetRequired')}
                    helperText={problemText('targetRequired')}
                    onChange={(id) => edit({ optIntegrationId: id })}
                    testId="bot-option-integration"
                  />
                )}
                {current.queueType === 'file' && (
                  <RecordSelect
                    source={fileListPages}
                    label={t('queueBot.targetFile')}
                    required
                    value={current.optFileId}
                    error={!!problemText('targetRequired')}
                    helperText={problemText('targetRequired')}
                    onChange={(id) => edit({ optFileId: id })}
                    testId="bot-option-file"
                  />
                )}
                <FormControlLabel
                  control={<Switch checked={current.closeTicket} onChange={(e) => edit({ closeTicket: e.target.checked })} inputProps={{ 'data-testid': 'bot-option-closeTicket' } as object} />}
                  label={t('queueBot.closeTicket')}
                />
                <Stack direction="row" spacing={1}>
                  <Button size="small" onClick={addChild} data-testid="bot-add-suboption">
                    {t('queueBot.addSubOption')}
                  </Button>
                  <Button size="small" color="error" onClick={remove} data-testid="bot-remove-option">
                    {t('queueBot.removeOption')}
                  </Button>
                </Stack>
              </>
            )}
          </Stack>
        </Stack>
      )}
      {rows.length > 0 && (
        <Typography variant="caption" component="p" color="text.secondary" sx={{ mt: 1 }} data-testid="bot-editor-hint">
          {t('queueBot.hint')}
        </Typography>
      )}
    </Box>
  );
}

/** The queue an option leads to: the company's queues all come in one list. */
function TargetSelect(p: { label: string; value: number | null; options: { id: number; name: string }[]; error?: string; onChange: (id: number | null) => void; testId: string }) {
  return (
    <TextField
      select
      size="small"
      required
      label={p.label}
      value={p.value === null ? '' : String(p.value)}
      error={!!p.error}
      helperText={p.error}
      onChange={(e) => p.onChange(e.target.value ? Number(e.target.value) : null)}
      data-testid={p.testId}
    >
      {p.options.map((o) => (
        <MenuItem key={o.id} value={String(o.id)} data-testid={`${p.testId}-${o.id}`}>
          {o.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
