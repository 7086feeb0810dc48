import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import UploadIcon from '@mui/icons-material/Upload';
import { FORM_SUBMIT_DELAY_MS, GLOBAL_SETTING_DEFAULTS, MSG, type PublicSettingKey, type Setting } from '@balcao/contracts';
import { publicFileUrl } from '../../config';
import { useGlobalSettings, useUpdateGlobalSetting, useUploadWhitelabel, type WhitelabelUpload } from '../../api/settings';
import { sleep } from '../../components/form';
import { ColorInput } from '../../components/fields/ColorInput';
import { TextInput } from '../../components/fields/TextInputs';
import { ListState } from '../../components/ListStates';
import { toast, toastError } from '../../components/toast';

const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
/** The same rules the server applies to these keys (`PUT /settings/{key}`). */
const identitySchema = z.object({
  primaryColorLight: z.string().trim().regex(COLOR, 'invalidColor'),
  primaryColorDark: z.string().trim().regex(COLOR, 'invalidColor'),
  appName: z.string().trim().min(1, MSG.required).max(100, MSG.tooLong),
});
type Identity = z.infer<typeof identitySchema>;
const IDENTITY_KEYS = ['primaryColorLight', 'primaryColorDark', 'appName'] as const;

const IMAGES: { key: PublicSettingKey; target: WhitelabelUpload }[] = [
  { key: 'appLogoLight', target: { typeArch: 'logo', mode: 'light' } },
  { key: 'appLogoDark', target: { typeArch: 'logo', mode: 'dark' } },
  { key: 'appLogoFavicon', target: { typeArch: 'logo', mode: 'favicon' } },
  { key: 'loginEnterImage', target: { typeArch: 'login', mode: 'enter' } },
  { key: 'loginRegisterImage', target: { typeArch: 'login', mode: 'register' } },
];

function valueOf(settings: Setting[], key: PublicSettingKey): string {
  return settings.find((s) => s.key === key)?.value ?? '';
}

function IdentityForm({ settings }: { settings: Setting[] }) {
  const { t } = useTranslation();
  const update = useUpdateGlobalSetting();
  const current: Identity = {
    primaryColorLight: valueOf(settings, 'primaryColorLight') || GLOBAL_SETTING_DEFAULTS.primaryColorLight,
    primaryColorDark: valueOf(settings, 'primaryColorDark') || GLOBAL_SETTING_DEFAULTS.primaryColorDark,
    appName: valueOf(settings, 'appName'),
  };
  const {
    control,
    handleSubmit,
    reset,
    formState: { isSubmitting, isDirty },
  } = useForm<Identity>({ resolver: zodResolver(identitySchema), defaultValues: current });
  const key = JSON.stringify(current);
  useEffect(() => {
    if (!isDirty) reset(JSON.parse(key) as Identity);
  }, [key, isDirty, reset]);

  const onSubmit = async (values: Identity) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      for (const k of IDENTITY_KEYS) {
        if (values[k] !== current[k]) await update.mutateAsync({ key: k, value: values[k] });
      }
      reset(values);
      toast.success(t('settings.whitelabel.saved'));
    } catch (err) {
      toastError(err);
    }
  };

  const colour = (name: 'primaryColorLight' | 'primaryColorDark') => (
    <ColorInput
      control={control}
      name={name}
      label={t(`settings.whitelabel.${name}`)}
      pickerLabel={t('settings.whitelabel.pickColor')}
      errorText={() => t('settings.whitelabel.invalidColor')}
      fallback="#000000"
      fullWidth
      testId={`whitelabel-${name}`}
    />
  );

  return (
    <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>{colour('primaryColorLight')}</Grid>
        <Grid size={{ xs: 12, md: 4 }}>{colour('primaryColorDark')}</Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextInput control={control} name="appName" label={t('settings.whitelabel.appName')} required testId="whitelabel-appName" />
        </Grid>
      </Grid>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
        <Button
          type="submit"
          variant="contained"
          disabled={isSubmitting}
          startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="whitelabel-submit"
        >
          {t('settings.whitelabel.save')}
        </Button>
      </Box>
    </Box>
  );
}

function ImageRow({ settingKey, target, value }: { settingKey: PublicSettingKey; target: WhitelabelUpload; value: string }) {
  const { t } = useTranslation();
  const upload = useUploadWhitelabel();
  const input = useRef<HTMLInputElement>(null);
  const dark = settingKey === 'appLogoDark';
  return (
    <Paper variant="outlined" sx={{ p: 1.5, display: 'flex', gap: 2, alignItems: 'center' }} data-testid={`whitelabel-image-${settingKey}`}>
      <Box
        sx={{
          width: 120,
          height: 64,
          flexShrink: 0,
          borderRadius: 1,
          bgcolor: dark ? 'grey.900' : 'grey.100',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
        }}
      >
        {value ? (
          <Box component="img" src={publicFileUrl(value)} alt="" sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
        ) : (
          <Typography variant="caption" color="text.secondary">
            {t('settings.whitelabel.noImage')}
          </Typography>
        )}
      </Box>
      <Typography sx={{ flex: 1 }}>{t(`settings.whitelabel.${settingKey}`)}</Typography>
      <Button
        variant="outlined"
        size="small"
        startIcon={upload.isPending ? <CircularProgress size={14} /> : <UploadIcon />}
        disabled={upload.isPending}
        onClick={() => input.current?.click()}
      >
        {t('settings.whitelabel.upload')}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept="image/png,image/jpeg,image/gif,image/webp,image/x-icon,image/vnd.microsoft.icon"
        data-testid={`whitelabel-upload-${settingKey}`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          upload.mutate(
            { target, file },
            {
              onSuccess: () => toast.success(t('settings.whitelabel.uploaded')),
              // Spec 1 §8: a logo upload failure is only logged; the server's reason is still shown.
              onError: (err) => {
                console.error('whitelabel upload failed', err);
                toastError(err);
              },
            },
          );
        }}
      />
    </Paper>
  );
}

/** Settings → whitelabel (super user): colours, app name, logos, login/signup backgrounds, user creation. */
export function WhitelabelTab() {
  const { t } = useTranslation();
  const settings = useGlobalSettings(true);
  const update = useUpdateGlobalSetting();
  if (!settings.data) {
    return <ListState loading={settings.isPending} error={settings.isError} empty={false} onRetry={() => void settings.refetch()} />;
  }
  const list = settings.data;
  const userCreation = valueOf(list, 'userCreation') || GLOBAL_SETTING_DEFAULTS.userCreation;
  return (
    <Stack spacing={3} data-testid="settings-whitelabel">
      <Box>
        <Typography variant="overline" color="text.secondary">
          {t('settings.whitelabel.sections.identity')}
        </Typography>
        <IdentityForm settings={list} />
      </Box>
      <Box>
        <Typography variant="overline" color="text.secondary">
          {t('settings.whitelabel.sections.images')}
        </Typography>
        <Grid container spacing={1.5}>
          {IMAGES.map((img) => (
            <Grid key={img.key} size={{ xs: 12, md: 6 }}>
              <ImageRow settingKey={img.key} target={img.target} value={valueOf(list, img.key)} />
            </Grid>
          ))}
        </Grid>
      </Box>
      <Box>
        <Typography variant="overline" color="text.secondary">
          {t('settings.whitelabel.sections.signup')}
        </Typography>
        <Box>
          <FormControlLabel
            label={t('settings.whitelabel.userCreation')}
            control={
              <Switch
                checked={userCreation === 'enabled'}
                disabled={update.isPending}
                onChange={(e) =>
                  update.mutate(
                    { key: 'userCreation', value: e.target.checked ? 'enabled' : 'disabled' },
                    { onSuccess: () => toast.success(t('settings.whitelabel.saved')), onError: (err) => toastError(err) },
                  )
                }
                slotProps={{ input: { 'data-testid': 'whitelabel-userCreation' } as object }}
              />
            }
          />
        </Box>
      </Box>
    </Stack>
  );
}
