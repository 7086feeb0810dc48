import { useEffect, useMemo, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import {
  ADMIN_ONLY_USER_FIELDS,
  DEFAULT_END_WORK,
  DEFAULT_START_WORK,
  FORM_SUBMIT_DELAY_MS,
  MAX_OPEN_TICKETS_LIMIT,
  WORK_HOURS_STEP_S,
  can,
  createUserBody,
  updateUserBody,
  type UpdateUserBody,
  type User,
} from '@balcao/contracts';
import { useQueues } from '../../api/queues';
import { useUser } from '../../api/session';
import { avatarUrl, scaleAvatar, uploadAvatar, useConnectionOptions, useSaveUser, useUserRecord } from '../../api/users';
import { sleep } from '../../components/form';
import { toast, toastError } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { MultiSelectInput, SelectInput } from '../../components/fields/SelectInputs';
import { SwitchInput } from '../../components/fields/SwitchInput';
import { NumberInput, PasswordInput, TextInput, TimeInput } from '../../components/fields/TextInputs';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';

type FormIn = z.input<typeof createUserBody>;
type FormOut = z.output<typeof updateUserBody>;
type Values = Required<Omit<FormIn, 'color'>>;

/** The Permissions tab, in the spec's order (spec 3 §2); all but allowGroup are enabled|disabled. */
const PERMISSIONS = ['allTicket', 'allowGroup', 'allHistoric', 'allUserChat', 'showDashboard', 'userClosePendingTicket', 'allowConnections', 'allowRealTime'] as const;

function initialValues(user: User | null): Values {
  return {
    name: user?.name ?? '',
    email: user?.email ?? '',
    password: '',
    profile: user?.profile ?? 'user',
    whatsappId: user?.whatsappId ?? null,
    queueIds: user?.queues.map((q) => q.id) ?? [],
    startWork: user?.startWork || DEFAULT_START_WORK,
    endWork: user?.endWork || DEFAULT_END_WORK,
    maxOpenTickets: user?.maxOpenTickets ?? null,
    farewellMessage: user?.farewellMessage ?? '',
    defaultMenu: user?.defaultMenu ?? 'open',
    defaultTheme: user?.defaultTheme ?? 'light',
    allowGroup: user?.allowGroup ?? false,
    allTicket: user?.allTicket ?? 'disabled',
    allHistoric: user?.allHistoric ?? 'disabled',
    allUserChat: user?.allUserChat ?? 'disabled',
    showDashboard: user?.showDashboard ?? 'disabled',
    userClosePendingTicket: user?.userClosePendingTicket ?? 'disabled',
    allowConnections: user?.allowConnections ?? 'disabled',
    allowRealTime: user?.allowRealTime ?? 'disabled',
  };
}

interface Props {
  open: boolean;
  /** null: a new user. */
  userId: number | null;
  onClose: () => void;
  /** The avatar menu's Profile: a summary header and a close button. */
  asProfile?: boolean;
  /** The profile's own sections below the general fields (two-factor login). */
  profileExtra?: ReactNode;
}

/** The user dialog of spec 3 §2 (General and Permissions tabs), also the Profile of the avatar menu. */
export function UserDialog({ open, userId, onClose, asProfile = false, profileExtra }: Props) {
  const { t } = useTranslation();
  const record = useUserRecord(open ? userId : null);
  const loaded = userId === null ? null : (record.data ?? undefined);

  let body: ReactNode;
  if (loaded === undefined) {
    body = (
      <DialogContent dividers>
        <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', gap: 1.5, py: 6 }}>
          {record.isError ? (
            <Typography color="error">{t('users.dialog.loadError')}</Typography>
          ) : (
            <>
              <CircularProgress size={22} />
              <Typography color="text.secondary">{t('users.dialog.loading')}</Typography>
            </>
          )}
        </Box>
      </DialogContent>
    );
  } else {
    body = <UserForm key={loaded?.id ?? 'new'} user={loaded} onClose={onClose} asProfile={asProfile} extra={profileExtra} />;
  }

  const title = asProfile ? t('users.dialog.profileTitle') : userId === null ? t('users.dialog.addTitle') : t('users.dialog.editTitle');
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" scroll="paper" data-testid={asProfile ? 'profile-dialog' : 'user-dialog'}>
      <ClosableDialogTitle closeLabel={t('users.dialog.close')} onClose={onClose} closeTestId="user-dialog-close">
        {title}
      </ClosableDialogTitle>
      {body}
    </Dialog>
  );
}


function UserForm({ user, onClose, asProfile, extra }: { user: User | null; onClose: () => void; asProfile: boolean; extra?: ReactNode }) {
  const { t } = useTranslation();
  const me = useUser();
  const isNew = user === null;
  const isSelf = user?.id === me.id;
  const editsProfile = can(me.profile, 'user-modal:editProfile');
  const editsQueues = can(me.profile, 'user-modal:editQueues');
  const [tab, setTab] = useState<'general' | 'permissions'>('general');
  const [avatar, setAvatar] = useState<{ blob: Blob; url: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const queues = useQueues(editsQueues);
  const connections = useConnectionOptions(editsProfile);
  const save = useSaveUser();

  useEffect(() => () => {
    if (avatar) URL.revokeObjectURL(avatar.url);
  }, [avatar]);

  const resolver = useMemo(
    () => (isNew ? zodResolver(createUserBody) : zodResolver(updateUserBody)) as Resolver<FormIn, unknown, FormOut>,
    [isNew],
  );
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({ resolver, defaultValues: initialValues(user) });

  const chooseAvatar = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast.error(t('users.dialog.avatarInvalid'));
      return;
    }
    try {
      const blob = await scaleAvatar(file);
      setAvatar({ blob, url: URL.createObjectURL(blob) });
    } catch {
      toast.error(t('users.dialog.avatarInvalid'));
    }
  };

  const onSubmit = async (values: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    const body: UpdateUserBody = { ...values };
    // Fields only an admin may set are never sent by anyone else (spec 3 §6).
    if (!editsProfile) for (const f of ADMIN_ONLY_USER_FIELDS) delete body[f];
    if (!isNew && !values.password) delete body.password;
    try {
      const saved = await save.mutateAsync({ id: user?.id ?? null, body });
      if (avatar && saved.id === me.id) await uploadAvatar(saved.id, avatar.blob);
      toast.success(t('users.toasts.saved'));
      onClose();
      // Editing yourself reloads the page so the session shows the new data (spec 3 §2).
      if (saved.id === me.id) setTimeout(() => window.location.reload(), 600);
    } catch (err) {
      toastError(err);
    }
  };

  const queueList = queues.data ?? [];
  const currentAvatar = avatar?.url ?? avatarUrl(user);

  return (
    <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit, () => setTab('general'))(e)} sx={{ display: 'contents' }}>
      <DialogContent dividers>
        {asProfile && user && (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }} data-testid="profile-summary">
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="h6" noWrap>
                {user.name}
              </Typography>
              <Typography variant="body2" color="text.secondary" noWrap>
                {user.email}
              </Typography>
              <Typography variant="body2" color="text.secondary" noWrap>
                {t(`users.profiles.${user.profile}`)}
                {user.super ? ` · ${t('users.profiles.super')}` : ''} · {me.company.name}
              </Typography>
            </Box>
          </Stack>
        )}
        {editsProfile && (
          <Tabs value={tab} onChange={(_e, v: 'general' | 'permissions') => setTab(v)} sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
            <Tab value="general" label={t('users.dialog.tabs.general')} data-testid="user-tab-general" />
            <Tab value="permissions" label={t('users.dialog.tabs.permissions')} data-testid="user-tab-permissions" />
          </Tabs>
        )}
        <Stack spacing={2} sx={{ display: tab === 'general' ? 'flex' : 'none', pt: 1 }}>
          {isSelf && !isNew && (
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Avatar src={currentAvatar} sx={{ width: 64, height: 64 }} data-testid="user-avatar-preview">
                {user?.name.charAt(0).toUpperCase()}
              </Avatar>
              <Box>
                <Button variant="outlined" size="small" startIcon={<PhotoCameraIcon />} onClick={() => fileInput.current?.click()}>
                  {t('users.dialog.avatarChoose')}
                </Button>
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
                  {t('users.dialog.avatarHint')}
                </Typography>
                <input ref={fileInput} type="file" accept="image/*" hidden data-testid="user-avatar-input" onChange={(e) => void chooseAvatar(e)} />
              </Box>
            </Stack>
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextInput control={control} name="name" label={t('users.dialog.name')} required autoFocus testId="user-name" />
            <PasswordInput
              control={control}
              name="password"
              label={t('users.dialog.password')}
              required={isNew}
              hint={isNew ? undefined : t('users.dialog.passwordKeep')}
              testId="user-password"
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextInput
              control={control}
              name="email"
              label={t('users.dialog.email')}
              required
              type="email"
              inputProps={{ autoComplete: 'off' }}
              transform={(v) => v.toLowerCase()}
              testId="user-email"
            />
            {editsProfile && (
              <SelectInput
                control={control}
                name="profile"
                label={t('users.dialog.profile')}
                required
                testId="user-profile"
                options={[
                  { value: 'admin', label: t('users.profiles.admin') },
                  { value: 'user', label: t('users.profiles.user') },
                ]}
              />
            )}
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <SelectInput
              control={control}
              name="defaultTheme"
              label={t('users.dialog.defaultTheme')}
              required
              testId="user-defaultTheme"
              options={[
                { value: 'light', label: t('users.dialog.themes.light') },
                { value: 'dark', label: t('users.dialog.themes.dark') },
              ]}
            />
            <SelectInput
              control={control}
              name="defaultMenu"
              label={t('users.dialog.defaultMenu')}
              required
              testId="user-defaultMenu"
              options={[
                { value: 'open', label: t('users.dialog.menus.open') },
                { value: 'closed', label: t('users.dialog.menus.closed') },
              ]}
            />
          </Stack>
          <TextInput control={control} name="farewellMessage" label={t('users.dialog.farewellMessage')} multiline minRows={2} testId="user-farewellMessage" />
          {editsProfile && (
            <SelectInput
              control={control}
              name="whatsappId"
              label={t('users.dialog.whatsapp')}
              noneLabel={t('users.dialog.noWhatsapp')}
              testId="user-whatsapp"
              options={(connections.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            />
          )}
          {editsQueues && (
            <MultiSelectInput
              control={control}
              name="queueIds"
              label={t('users.dialog.queues')}
              testId="user-queues"
              optionTestId={(id) => `user-queue-option-${id}`}
              options={queueList.map((q) => ({ value: q.id, label: q.name }))}
              optionAdornment={(o) => (
                <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: queueList.find((q) => q.id === o.value)?.color, mr: 1 }} />
              )}
              renderSelected={(ids) => (
                <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
                  {ids.map((id) => {
                    const q = queueList.find((x) => x.id === id);
                    return <Chip key={String(id)} size="small" label={q?.name ?? String(id)} sx={{ bgcolor: q?.color, color: '#fff' }} />;
                  })}
                </Stack>
              )}
            />
          )}
          {editsProfile && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TimeInput control={control} name="startWork" label={t('users.dialog.startWork')} stepSeconds={WORK_HOURS_STEP_S} testId="user-startWork" />
              <TimeInput control={control} name="endWork" label={t('users.dialog.endWork')} stepSeconds={WORK_HOURS_STEP_S} testId="user-endWork" />
            </Stack>
          )}
          {editsProfile && (
            <NumberInput
              control={control}
              name="maxOpenTickets"
              label={t('users.dialog.maxOpenTickets')}
              hint={t('users.dialog.maxOpenTicketsHint')}
              min={0}
              max={MAX_OPEN_TICKETS_LIMIT}
              testId="user-maxOpenTickets"
            />
          )}
        </Stack>
        {editsProfile && (
          <Stack spacing={0.5} sx={{ display: tab === 'permissions' ? 'flex' : 'none', pt: 1 }} data-testid="user-permissions">
            {PERMISSIONS.map((p) => (
              <SwitchInput
                key={p}
                control={control}
                name={p}
                label={t(`users.permissions.${p}`)}
                values={p === 'allowGroup' ? [true, false] : ['enabled', 'disabled']}
                testId={`perm-${p}`}
              />
            ))}
          </Stack>
        )}
        {tab === 'general' && extra}
      </DialogContent>
      <FormDialogActions
        cancelLabel={t('users.dialog.cancel')}
        submitLabel={isNew ? t('users.dialog.add') : t('users.dialog.save')}
        submitting={isSubmitting}
        onCancel={onClose}
        testId="user-submit"
      />
    </Box>
  );
}
