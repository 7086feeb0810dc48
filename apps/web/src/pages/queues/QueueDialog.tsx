import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import {
  DEFAULT_QUEUE_COLOR,
  DEFAULT_WEEK_SCHEDULE,
  FORM_SUBMIT_DELAY_MS,
  ROUTER_MINUTES,
  createQueueBody,
  type Queue,
  type WeekSchedule,
} from '@balcao/contracts';
import { ApiError } from '../../api/http';
import { useQueueRecord } from '../../api/chatbots';
import { useQueues, useSaveQueue } from '../../api/queues';
import { useUser } from '../../api/session';
import { FileListSelect } from './FileListSelect';
import { IntegrationSelect } from './IntegrationSelect';
import { HoursEditor } from '../../components/HoursEditor';
import { sleep } from '../../components/form';
import { ColorInput } from '../../components/fields/ColorInput';
import { SwitchInput } from '../../components/fields/SwitchInput';
import { NumberInput, TextInput } from '../../components/fields/TextInputs';
import { toast, toastError } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';
import { ChatbotEditor } from './ChatbotEditor';
import { RouterFields } from './RouterFields';
import { firstProblem, fromApi, toBody, type EditorOption, type OptionPath, type OptionProblem } from './chatbot-tree';
import './bot-texts';

type FormIn = z.input<typeof createQueueBody>;
type FormOut = z.output<typeof createQueueBody>;

interface Props {
  queue: Queue | null;
  /** The company's scheduleType: the service-hours tab exists only for 'queue'. */
  scheduleType: string | undefined;
  onClose: () => void;
}

/** The queue dialog: queue data, and service hours when scheduleType is 'queue' (spec 3 §2). */
export function QueueDialog({ queue, scheduleType, onClose }: Props) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'data' | 'hours'>('data');
  const save = useSaveQueue();
  const user = useUser();
  const record = useQueueRecord(queue?.id ?? null);
  const allQueues = useQueues();
  // The tree is sent only once loaded: saving before that must not wipe the stored one.
  const [tree, setTree] = useState<EditorOption[] | null>(queue ? null : []);
  const [selected, setSelected] = useState<OptionPath | null>(null);
  const [problem, setProblem] = useState<OptionProblem | null>(null);
  useEffect(() => {
    if (tree === null && record.data) setTree(fromApi(record.data.chatbots ?? []));
  }, [tree, record.data]);
  const hoursEnabled = scheduleType === 'queue';
  const {
    control,
    handleSubmit,
    setValue,
    setError,
    watch,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createQueueBody),
    defaultValues: {
      name: queue?.name ?? '',
      color: queue?.color ?? DEFAULT_QUEUE_COLOR,
      orderQueue: queue?.orderQueue ?? '',
      greetingMessage: queue?.greetingMessage ?? '',
      outOfHoursMessage: queue?.outOfHoursMessage ?? '',
      closeTicket: queue?.closeTicket ?? false,
      ativarRoteador: queue?.ativarRoteador ?? false,
      tempoRoteador: queue?.tempoRoteador || ROUTER_MINUTES[0],
      integrationId: queue?.integrationId ?? null,
      fileListId: queue?.fileListId ?? null,
      schedules: queue?.schedules?.length ? queue.schedules : DEFAULT_WEEK_SCHEDULE,
    },
  });
  const schedules = watch('schedules');
  const routerOn = watch('ativarRoteador') === true;

  const onSubmit = async (values: FormOut) => {
    const issue = tree && firstProblem(tree);
    if (issue) {
      setTab('data');
      setSelected(issue.path);
      setProblem(issue.problem);
      return;
    }
    setProblem(null);
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: queue?.id ?? null, body: tree ? { ...values, chatbots: toBody(tree) } : values });
      toast.success(t('queues.toasts.saved'));
      if (tree?.length) toast.success(t('queueBot.saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_QUEUE_COLOR_ALREADY_EXISTS') {
        setTab('data');
        setError('color', { type: 'server', message: t('backendErrors.ERR_QUEUE_COLOR_ALREADY_EXISTS') });
      }
      if (err instanceof ApiError && err.code === 'ERR_QUEUE_NAME_ALREADY_EXISTS') {
        setTab('data');
        setError('name', { type: 'server', message: t('backendErrors.ERR_QUEUE_NAME_ALREADY_EXISTS') });
      }
      toastError(err);
    }
  };

  const applyHours = (next: WeekSchedule) => {
    setValue('schedules', next, { shouldDirty: true });
    toast.info(t('queues.toasts.hoursHint'));
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" scroll="paper" data-testid="queue-dialog">
      <ClosableDialogTitle closeLabel={t('queues.dialog.close')} onClose={onClose}>
        {queue ? t('queues.dialog.editTitle') : t('queues.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit, () => setTab('data'))(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          {hoursEnabled && (
            <Tabs value={tab} onChange={(_e, v: 'data' | 'hours') => setTab(v)} sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
              <Tab value="data" label={t('queues.dialog.tabs.data')} data-testid="queue-tab-data" />
              <Tab value="hours" label={t('queues.dialog.tabs.hours')} data-testid="queue-tab-hours" />
            </Tabs>
          )}
          <Stack spacing={2} sx={{ display: tab === 'data' ? 'flex' : 'none', pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextInput control={control} name="name" label={t('queues.dialog.name')} required autoFocus testId="queue-name" />
              <ColorInput
                control={control}
                name="color"
                label={t('queues.dialog.color')}
                pickerLabel={t('queues.dialog.pickColor')}
                fallback={DEFAULT_QUEUE_COLOR}
                required
                fullWidth={false}
                sx={{ minWidth: 170 }}
                testId="queue-color"
              />
              <NumberInput control={control} name="orderQueue" label={t('queues.dialog.orderQueue')} min={0} fullWidth={false} sx={{ minWidth: 150 }} testId="queue-orderQueue" />
            </Stack>
            <TextInput control={control} name="greetingMessage" label={t('queues.dialog.greetingMessage')} multiline testId="queue-greetingMessage" />
            <TextInput control={control} name="outOfHoursMessage" label={t('queues.dialog.outOfHoursMessage')} multiline testId="queue-outOfHoursMessage" />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <IntegrationSelect control={control} name="integrationId" />
              <FileListSelect control={control} name="fileListId" />
            </Stack>
            <SwitchInput control={control} name="closeTicket" label={t('queues.dialog.closeTicket')} testId="queue-closeTicket" />
            <RouterFields control={control} enabled={routerOn} />
            {tree && (
              <ChatbotEditor
                value={tree}
                onChange={setTree}
                selected={selected}
                onSelect={(path) => {
                  setSelected(path);
                  setProblem(null);
                }}
                problem={problem}
                queues={(allQueues.data ?? []).filter((q) => q.id !== queue?.id)}
                integrationsAllowed={user.company.plan?.useIntegrations === true}
              />
            )}
          </Stack>
          {hoursEnabled && tab === 'hours' && <HoursEditor value={schedules} onSubmit={applyHours} submitLabel={t('queues.dialog.applyHours')} />}
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('queues.dialog.cancel')}
          submitLabel={queue ? t('queues.dialog.save') : t('queues.dialog.add')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="queue-submit"
        />
      </Box>
    </Dialog>
  );
}
