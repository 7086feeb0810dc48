import type { ReactNode } from 'react';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '@balcao/contracts';
import { publicFileUrl } from '../config';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'baseline' }}>
      <Typography variant="body2" color="text.secondary" sx={{ minWidth: 140 }}>
        {label}
      </Typography>
      <Typography variant="body1" component="div">
        {children}
      </Typography>
    </Stack>
  );
}

/** The user's own data, read only; editing comes with the users issue. */
export function ProfileDialog({ user, open, onClose }: { user: SessionUser; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const avatar = user.profileImage ? publicFileUrl(`company${user.companyId}/user/${user.profileImage}`) : undefined;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="profile-dialog">
      <DialogTitle>{t('profileDialog.title')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={1.5}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Avatar src={avatar} sx={{ width: 56, height: 56 }}>
              {user.name.charAt(0).toUpperCase()}
            </Avatar>
            <Typography variant="h6">{user.name}</Typography>
          </Stack>
          <Row label={t('profileDialog.email')}>{user.email}</Row>
          <Row label={t('profileDialog.profile')}>
            {t(user.profile === 'admin' ? 'profileDialog.admin' : 'profileDialog.user')}
            {user.super ? ` · ${t('profileDialog.super')}` : ''}
          </Row>
          <Row label={t('profileDialog.company')}>{user.company.name}</Row>
          <Row label={t('profileDialog.workHours')}>
            {user.startWork} – {user.endWork}
          </Row>
          <Row label={t('profileDialog.queues')}>
            {user.queues.length === 0 ? (
              t('profileDialog.noQueues')
            ) : (
              <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
                {user.queues.map((q) => (
                  <Chip key={q.id} size="small" label={q.name} sx={{ bgcolor: q.color, color: '#fff' }} />
                ))}
              </Stack>
            )}
          </Row>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
