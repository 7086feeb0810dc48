import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import {
  CAMPAIGN_CONFIRMATION_FIELDS,
  CAMPAIGN_MESSAGE_FIELDS,
  CAMPAIGN_TICKET_STATUSES,
  FORM_SUBMIT_DELAY_MS,
  campaignBody,
  campaignEditable,
  type Campaign,
} from '@balcao/contracts';
import { request } from '../../api/http';
import { useQueues } from '../../api/queues';
import { useTagsList } from '../../api/tags';
import { useConnectionOptions } from '../../api/users';
import { sleep } from '../../components/form';
import { SelectInput } from '../../components/fields/SelectInputs';
import { SwitchInput } from '../../components/fields/SwitchInput';
import { TextInput } from '../../components/fields/TextInputs';
import { toast, toastError } from '../../components/toast';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';
import { useAllContactLists } from '../contact-lists/queries';
import { useCampaignAction, useCampaignSettings, useSaveCampaign } from './queries';
import './texts';

type FormIn = z.input<typeof campaignBody>;
type FormOut = z.output<typeof campaignBody>;

/** `YYYY-MM-DDTHH:mm` (the datetime field) of a stored instant, in local time. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The modal's schedule as the API takes it: `YYYY-MM-DD HH:mm:ss` (spec 3 §5). */
const scheduleText = (value: string | null | undefined) => (value ? `${value.replace('T', ' ').slice(0, 16)}:00` : null);

/**
 * The campaign modal (spec 3 §2): name, contact list or tag list, connection, schedule,
 * confirmation, openTicket with status/user/queue, attachment, Msg. 1–5 and (with
 * confirmation) the five confirmation messages. Read-only unless editable (spec 3 §4); a
 * CANCELADA campaign still saves and restarts.
 */
export function CampaignDialog({ campaign, onClose }: { campaign: Campaign | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveCampaign();
  const action = useCampaignAction();
  const lists = useAllContactLists();
  const tags = useTagsList(0);
  const connections = useConnectionOptions(true);
  const queues = useQueues();
  const users = useQuery({ queryKey: ['users', 'list'], queryFn: ({ signal }) => request<{ id: number; name: string }[]>('/users/list', { signal }) });
  const settings = useCampaignSettings();
  const [tab, setTab] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);
  const editable = !campaign || campaignEditable(campaign);
  const {
    control,
    handleSubmit,
    watch,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(campaignBody),
    defaultValues: {
      name: campaign?.name ?? '',
      contactListId: campaign?.contactListId ?? null,
      tagListId: campaign?.tagListId ?? null,
      whatsappId: campaign?.whatsappId ?? null,
      scheduledAt: localInput(campaign?.scheduledAt ?? null),
      confirmation: campaign?.confirmation ?? false,
      openTicket: campaign?.openTicket ?? 'disabled',
      statusTicket: campaign?.statusTicket ?? 'closed',
      userId: campaign?.userId ?? null,
      queueId: campaign?.queueId ?? null,
      ...Object.fromEntries([...CAMPAIGN_MESSAGE_FIELDS, ...CAMPAIGN_CONFIRMATION_FIELDS].map((f) => [f, campaign?.[f] ?? ''])),
    },
  });
  const confirmation = watch('confirmation');
  const openTicket = watch('openTicket') === 'enabled';
  const fields = confirmation ? [...CAMPAIGN_MESSAGE_FIELDS, ...CAMPAIGN_CONFIRMATION_FIELDS] : CAMPAIGN_MESSAGE_FIELDS;
  const current = fields[Math.min(tab, fields.length - 1)]!;
  const custom = (JSON.parse(settings.data?.variables ?? '[]') as { key: string }[]).map((v) => `, {${v.key}}`).join('');
  const options = (rows: { id: number; name: string }[] | undefined) => (rows ?? []).map((r) => ({ value: r.id, label: r.name }));

  const submit = async (body: FormOut, restart: boolean) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      const saved = await save.mutateAsync({ id: campaign?.id ?? null, body: { ...body, scheduledAt: scheduleText(body.scheduledAt) }, file, removeMedia });
      if (restart) {
        await action.mutateAsync({ id: saved.id, action: 'restart' });
        toast.success(t('campaigns.toasts.restarted'));
      } else toast.success(t('campaigns.toasts.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  };

  const title = !editable ? t('campaigns.dialog.readOnlyTitle') : campaign ? t('campaigns.dialog.editTitle') : t('campaigns.dialog.addTitle');
  const mediaName = file?.name ?? (removeMedia ? null : campaign?.mediaName);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" scroll="paper" data-testid="campaign-dialog">
      <ClosableDialogTitle closeLabel={t('campaigns.dialog.close')} onClose={onClose}>
        {title}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit((b) => submit(b, false))(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextInput control={control} name="name" label={t('campaigns.dialog.name')} required autoFocus disabled={!editable} testId="campaign-name" />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <SelectInput control={control} name="contactListId" label={t('campaigns.dialog.contactList')} options={options(lists.data)} noneLabel={t('campaigns.dialog.none')} disabled={!editable} testId="campaign-contactListId" />
              <SelectInput control={control} name="tagListId" label={t('campaigns.dialog.tagList')} options={options(tags.data)} noneLabel={t('campaigns.dialog.none')} disabled={!editable} testId="campaign-tagListId" />
              <SelectInput control={control} name="whatsappId" label={t('campaigns.dialog.whatsapp')} options={options(connections.data)} noneLabel={t('campaigns.dialog.none')} disabled={!editable} testId="campaign-whatsappId" />
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems="center">
              <TextInput control={control} name="scheduledAt" label={t('campaigns.dialog.scheduledAt')} type="datetime-local" disabled={!editable} testId="campaign-scheduledAt" />
              <SwitchInput control={control} name="confirmation" label={t('campaigns.dialog.confirmation')} disabled={!editable} testId="campaign-confirmation" />
              <SwitchInput control={control} name="openTicket" label={t('campaigns.dialog.openTicket')} values={['enabled', 'disabled']} disabled={!editable} testId="campaign-openTicket" />
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <SelectInput
                control={control}
                name="statusTicket"
                label={t('campaigns.dialog.statusTicket')}
                options={CAMPAIGN_TICKET_STATUSES.map((s) => ({ value: s, label: t(`campaigns.dialog.ticketStatus.${s}`) }))}
                disabled={!editable}
                testId="campaign-statusTicket"
              />
              <SelectInput control={control} name="userId" label={t('campaigns.dialog.user')} options={options(users.data)} noneLabel={t('campaigns.dialog.none')} disabled={!editable || !openTicket} testId="campaign-userId" />
              <SelectInput control={control} name="queueId" label={t('campaigns.dialog.queue')} options={options(queues.data)} noneLabel={t('campaigns.dialog.none')} disabled={!editable || !openTicket} testId="campaign-queueId" />
            </Stack>
            <Stack direction="row" spacing={2} alignItems="center">
              <Button component="label" variant="outlined" startIcon={<AttachFileIcon />} disabled={!editable}>
                {t('campaigns.dialog.media')}
                <input hidden type="file" data-testid="campaign-media" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
              </Button>
              {mediaName && (
                <>
                  <Typography variant="body2" data-testid="campaign-media-name">
                    {mediaName}
                  </Typography>
                  <Button
                    size="small"
                    disabled={!editable}
                    onClick={() => {
                      setFile(null);
                      setRemoveMedia(true);
                    }}
                  >
                    {t('campaigns.dialog.removeMedia')}
                  </Button>
                </>
              )}
            </Stack>
            <Tabs value={Math.min(tab, fields.length - 1)} onChange={(_e, v: number) => setTab(v)} variant="scrollable" aria-label={t('campaigns.dialog.messagesLabel')}>
              {fields.map((f, i) => (
                <Tab
                  key={f}
                  value={i}
                  data-testid={`campaign-tab-${f}`}
                  label={i < 5 ? t('campaigns.dialog.message', { n: i + 1 }) : t('campaigns.dialog.confirmationMessage', { n: i - 4 })}
                />
              ))}
            </Tabs>
            <TextInput key={current} control={control} name={current} label={current.startsWith('message') ? t('campaigns.dialog.message', { n: Number(current.slice(-1)) }) : t('campaigns.dialog.confirmationMessage', { n: Number(current.slice(-1)) })} multiline minRows={4} disabled={!editable} testId={`campaign-${current}`} />
            <Typography variant="caption" color="text.secondary">
              {t('campaigns.dialog.help', { custom })}
            </Typography>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('campaigns.dialog.cancel')}</Button>
          {campaign?.status === 'CANCELADA' && (
            <Button variant="outlined" disabled={isSubmitting} onClick={() => void handleSubmit((b) => submit(b, true))()} data-testid="campaign-restart">
              {t('campaigns.dialog.restart')}
            </Button>
          )}
          {editable && (
            <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="campaign-submit">
              {campaign ? t('campaigns.dialog.save') : t('campaigns.dialog.add')}
            </Button>
          )}
        </DialogActions>
      </Box>
    </Dialog>
  );
}
