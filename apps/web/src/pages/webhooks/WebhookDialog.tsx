import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { FORM_SUBMIT_DELAY_MS, WEBHOOK_EVENTS, createWebhookBody, type WebhookEndpoint, type WebhookEvent } from '@balcao/contracts';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';
import { FormDialogActions } from '../../components/FormDialogActions';
import { sleep } from '../../components/form';
import { toast, toastError } from '../../components/toast';
import { useRotateSecret, useSaveWebhook } from './queries';
import { eventKey } from './events';
import './texts';

/** Adds or edits an endpoint: its URL, the events it receives, on/off; once saved, its signing secret to copy or replace. */
export function WebhookDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveWebhook();
  const rotate = useRotateSecret();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>((endpoint?.events ?? []).filter((e): e is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(e)));
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true);
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const secret = (endpoint && rotate.data?.id === endpoint.id ? rotate.data.secret : endpoint?.secret) ?? null;

  const parsed = createWebhookBody.safeParse({ url, events, enabled });
  const urlError = submitted && !parsed.success && parsed.error.issues.some((i) => i.path[0] === 'url');
  const eventsError = submitted && events.length === 0;

  const submit = async () => {
    setSubmitted(true);
    if (!parsed.success) return;
    setSubmitting(true);
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: endpoint?.id ?? null, body: parsed.data });
      toast.success(t('webhooks.toasts.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setSubmitting(false);
    }
  };

  const toggle = (event: WebhookEvent, on: boolean) => setEvents((list) => (on ? [...list, event] : list.filter((e) => e !== event)));

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="webhook-dialog">
      <ClosableDialogTitle closeLabel={t('webhooks.dialog.close')} onClose={onClose}>
        {endpoint ? t('webhooks.dialog.editTitle') : t('webhooks.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        sx={{ display: 'contents' }}
      >
        <DialogContent dividers>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('webhooks.dialog.url')}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              required
              autoFocus
              size="small"
              error={urlError}
              helperText={urlError ? (url.trim() ? t('webhooks.dialog.invalidUrl') : t('webhooks.dialog.required')) : t('webhooks.dialog.urlHint')}
              slotProps={{ htmlInput: { maxLength: 2000, 'data-testid': 'webhook-url' } }}
            />
            <FormControl error={eventsError} component="fieldset">
              <FormLabel component="legend">{t('webhooks.dialog.events')}</FormLabel>
              <FormGroup>
                {WEBHOOK_EVENTS.map((event) => (
                  <FormControlLabel
                    key={event}
                    control={<Checkbox checked={events.includes(event)} onChange={(e) => toggle(event, e.target.checked)} slotProps={{ input: { 'data-testid': `webhook-event-${event}` } as object }} />}
                    label={`${t(`webhooks.events.${eventKey(event)}`)} (${event})`}
                  />
                ))}
              </FormGroup>
              {eventsError && <FormHelperText>{t('webhooks.dialog.required')}</FormHelperText>}
            </FormControl>
            <FormControlLabel control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} slotProps={{ input: { 'data-testid': 'webhook-enabled' } as object }} />} label={t('webhooks.dialog.enabled')} />
            {endpoint && secret && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <TextField
                  label={t('webhooks.dialog.secret')}
                  value={secret}
                  size="small"
                  fullWidth
                  slotProps={{
                    htmlInput: { readOnly: true, 'data-testid': 'webhook-secret' },
                    input: {
                      endAdornment: (
                        <InputAdornment position="end">
                          <Tooltip title={t('webhooks.dialog.copy')}>
                            <IconButton
                              aria-label={t('webhooks.dialog.copy')}
                              edge="end"
                              onClick={() => void navigator.clipboard?.writeText(secret).then(() => toast.success(t('webhooks.toasts.copied')))}
                            >
                              <ContentCopyIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        </InputAdornment>
                      ),
                    },
                  }}
                />
                <Button
                  variant="outlined"
                  sx={{ flexShrink: 0 }}
                  disabled={rotate.isPending}
                  data-testid="webhook-rotate"
                  onClick={() =>
                    rotate.mutate(endpoint.id, { onSuccess: () => toast.success(t('webhooks.toasts.rotated')), onError: toastError })
                  }
                >
                  {t('webhooks.dialog.rotate')}
                </Button>
              </Stack>
            )}
          </Stack>
        </DialogContent>
        <FormDialogActions cancelLabel={t('webhooks.dialog.close')} submitLabel={t('webhooks.dialog.save')} submitting={submitting} onCancel={onClose} testId="webhook-save" />
      </Box>
    </Dialog>
  );
}
