import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import type { TwoFactorEnrolment } from '@balcao/contracts';

/** The secret to scan (QR of the otpauth URI) or type, for profile enrolment and the login page's required setup. */
export function AuthenticatorSetup({ enrolment }: { enrolment: TwoFactorEnrolment }) {
  const { t } = useTranslation();
  // Groups of four, as authenticator apps show keys typed by hand.
  const key = enrolment.secret.replace(/(.{4})(?=.)/g, '$1 ');
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5 }} data-testid="two-factor-setup">
      <Typography variant="body2">{t('twoFactor.scan')}</Typography>
      <Box sx={{ p: 1, bgcolor: '#fff', borderRadius: 1, lineHeight: 0 }}>
        <QRCodeSVG value={enrolment.otpauthUrl} size={176} role="img" aria-label={t('twoFactor.title')} />
      </Box>
      <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all', textAlign: 'center' }}>
        {t('twoFactor.secretLabel')}: <span data-testid="two-factor-secret">{key}</span>
      </Typography>
    </Box>
  );
}
