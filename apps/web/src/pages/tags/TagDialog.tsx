import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import { DEFAULT_TAG_COLOR, FORM_SUBMIT_DELAY_MS, createTagBody, type Tag } from '@balcao/contracts';
import { ApiError } from '../../api/http';
import { useSaveTag, useTagsList } from '../../api/tags';
import { sleep } from '../../components/form';
import { ColorInput } from '../../components/fields/ColorInput';
import { SelectInput } from '../../components/fields/SelectInputs';
import { SwitchInput } from '../../components/fields/SwitchInput';
import { NumberInput, TextInput } from '../../components/fields/TextInputs';
import { toast, toastError } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';

type FormIn = z.input<typeof createTagBody>;
type FormOut = z.output<typeof createTagBody>;

/** A new tag starts with a random colour (issue 14), so a row of new tags is told apart at a glance. */
export function randomTagColor(random: () => number = Math.random): string {
  return `#${Math.floor(random() * 0x1000000)
    .toString(16)
    .padStart(6, '0')
    .toUpperCase()}`;
}

interface Props {
  tag: Tag | null;
  /** The kind a new tag gets: 0 on /tags, 1 (a kanban lane) on /TagsKanban. */
  kanban: 0 | 1;
  onClose: () => void;
}

/**
 * The tag dialog of /tags and /TagsKanban (spec 2 §2): name, colour, the kanban flag and,
 * for a lane, its automation — minutes in the lane (`timeLane`), the lane it then moves
 * to (`nextLaneId`) with the message sent on the way (`greetingMessageLane`), and the lane
 * a customer's reply returns it to (`rollbackLaneId`).
 */
export function TagDialog({ tag, kanban, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveTag();
  const lanes = useTagsList(1);
  const {
    control,
    handleSubmit,
    setError,
    watch,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createTagBody),
    defaultValues: {
      name: tag?.name ?? '',
      color: tag?.color ?? randomTagColor(),
      kanban: tag?.kanban ?? kanban,
      timeLane: tag?.timeLane ?? 0,
      nextLaneId: tag?.nextLaneId ?? null,
      rollbackLaneId: tag?.rollbackLaneId ?? null,
      greetingMessageLane: tag?.greetingMessageLane ?? '',
    },
  });
  const isLane = Number(watch('kanban')) === 1;
  const laneOptions = (lanes.data ?? []).filter((lane) => lane.id !== tag?.id).map((lane) => ({ value: lane.id, label: lane.name }));

  const onSubmit = async (values: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: tag?.id ?? null, body: values });
      toast.success(t('tags.toasts.saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_TAG_ALREADY_EXISTS') {
        setError('name', { type: 'server', message: t('backendErrors.ERR_TAG_ALREADY_EXISTS') });
      }
      toastError(err);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" scroll="paper" data-testid="tag-dialog">
      <ClosableDialogTitle closeLabel={t('tags.dialog.close')} onClose={onClose}>
        {tag ? t('tags.dialog.editTitle') : t('tags.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {/* The tag form's own words ('Obrigatório', 'Mensagem muito curta'), not the generic ones. */}
              <TextInput control={control} name="name" label={t('tags.dialog.name')} required autoFocus errorText={(e) => e.message} testId="tag-name" />
              <ColorInput
                control={control}
                name="color"
                label={t('tags.dialog.color')}
                pickerLabel={t('tags.dialog.pickColor')}
                fallback={DEFAULT_TAG_COLOR}
                required
                fullWidth={false}
                sx={{ minWidth: 170 }}
                testId="tag-color"
              />
            </Stack>
            <SwitchInput control={control} name="kanban" label={t('tags.dialog.kanban')} values={[1, 0]} testId="tag-kanban" />
            {isLane && (
              <>
                <NumberInput control={control} name="timeLane" label={t('tags.dialog.timeLane')} hint={t('tags.dialog.timeLaneHint')} min={0} testId="tag-timeLane" />
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <SelectInput control={control} name="nextLaneId" label={t('tags.dialog.nextLane')} options={laneOptions} noneLabel={t('tags.dialog.noLane')} testId="tag-nextLaneId" />
                  <SelectInput
                    control={control}
                    name="rollbackLaneId"
                    label={t('tags.dialog.rollbackLane')}
                    options={laneOptions}
                    noneLabel={t('tags.dialog.noLane')}
                    testId="tag-rollbackLaneId"
                  />
                </Stack>
                <TextInput control={control} name="greetingMessageLane" label={t('tags.dialog.greetingMessageLane')} multiline testId="tag-greetingMessageLane" />
              </>
            )}
          </Stack>
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('tags.dialog.cancel')}
          submitLabel={tag ? t('tags.dialog.save') : t('tags.dialog.add')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="tag-submit"
        />
      </Box>
    </Dialog>
  );
}
