import './texts';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { messagesApiUrl, sendThroughApi } from '../../api/messagesApi';
import { FileInput } from '../../components/fields/FileInput';
import { TextInput } from '../../components/fields/TextInputs';
import { toast, toastError } from '../../components/toast';
import { curlJson, curlMedia } from './curl';

function Example({ title, help, code, testId }: { title: string; help: string; code: string; testId: string }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toast.success(t('messagesApi.copied'));
    } catch {
      toast.info(code);
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={testId}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <Button size="small" startIcon={<ContentCopyIcon />} onClick={() => void copy()} data-testid={`${testId}-copy`}>
          {t('messagesApi.copy')}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {help}
      </Typography>
      <Box component="pre" sx={{ m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, overflowX: 'auto', fontSize: 13 }}>
        <code>{code}</code>
      </Box>
    </Paper>
  );
}

const testForm = z
  .object({ token: z.string().trim().min(1), number: z.string().trim().min(1), body: z.string(), media: z.instanceof(File).nullable() })
  .refine((v) => v.body.trim() !== '' || v.media !== null, { path: ['body'], message: 'bodyOrMedia' });
type TestForm = z.infer<typeof testForm>;

/** /messages-api (spec 3 §2): how to call the external API, with copyable examples, and a form that calls it as an integration would. */
export function MessagesApiPage() {
  const { t } = useTranslation();
  const url = messagesApiUrl();
  const form = useForm<TestForm>({ resolver: zodResolver(testForm), defaultValues: { token: '', number: '', body: '', media: null } });
  const { control, formState } = form;
  const errorText = (e: { message?: string; type?: string }) => (e.message === 'bodyOrMedia' ? t('messagesApi.bodyOrMedia') : t('messagesApi.required'));

  const submit = form.handleSubmit(async (values) => {
    try {
      await sendThroughApi(values);
      toast.success(t('messagesApi.sent'));
      form.reset({ ...values, body: '', media: null });
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2, flex: 1 }} data-testid="messages-api-page">
      <Typography variant="h5" component="h1" color="primary" data-testid="page-title" sx={{ fontWeight: 600 }}>
        {t('messagesApi.title')}
      </Typography>
      <Typography color="text.secondary">{t('messagesApi.intro')}</Typography>
      <Typography>
        {t('messagesApi.endpoint')}: <code data-testid="messages-api-url">POST {url}</code>
      </Typography>
      <Example title={t('messagesApi.textTitle')} help={t('messagesApi.textHelp')} code={curlJson(url)} testId="example-json" />
      <Example title={t('messagesApi.mediaTitle')} help={t('messagesApi.mediaHelp')} code={curlMedia(url)} testId="example-media" />
      <Paper variant="outlined" sx={{ p: 2 }} component="form" noValidate onSubmit={(e) => void submit(e)} data-testid="messages-api-test">
        <Typography variant="h6" component="h2" gutterBottom>
          {t('messagesApi.testTitle')}
        </Typography>
        <Stack spacing={2} sx={{ maxWidth: 560 }}>
          <TextInput control={control} name="token" label={t('messagesApi.token')} testId="api-token" required errorText={errorText} />
          <TextInput control={control} name="number" label={t('messagesApi.number')} testId="api-number" required errorText={errorText} />
          <TextInput control={control} name="body" label={t('messagesApi.body')} testId="api-body" multiline errorText={errorText} />
          <FileInput control={control} name="media" label={t('messagesApi.media')} testId="api-media" />
          <Box>
            <Button
              type="submit"
              variant="contained"
              disabled={formState.isSubmitting}
              data-testid="api-send"
              startIcon={formState.isSubmitting ? <CircularProgress size={16} aria-label={t('messagesApi.sending')} /> : undefined}
            >
              {t('messagesApi.send')}
            </Button>
          </Box>
        </Stack>
      </Paper>
    </Box>
  );
}
