import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QRCodeSVG } from 'qrcode.react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import type { SubscriptionResponse } from '@balcao/contracts';
import { formatAmount } from '../../components/format';

/** Spec 3 §9: the copy button says "copied" for 1 s. */
const COPIED_FEEDBACK_MS = 1000;

/** The payment-code screen: the BR Code to copy, its QR code and the amount the server charged. */
export function PixPayment({ charge }: { charge: SubscriptionResponse }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const code = charge.qrcode.qrcode;
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    await navigator.clipboard.writeText(code).catch(() => undefined);
    setCopied(true);
  };
  return (
    <Stack spacing={2} sx={{ alignItems: 'center' }} data-testid="checkout-pix">
      <Typography variant="h6">{t('financeiro.checkout.pixTitle')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('financeiro.checkout.pixHint')}
      </Typography>
      <Box sx={{ bgcolor: '#fff', p: 1, borderRadius: 1 }}>
        <QRCodeSVG value={code} size={220} marginSize={2} role="img" aria-label={t('financeiro.checkout.qrLabel')} />
      </Box>
      <Typography variant="h6" data-testid="checkout-amount">
        {t('financeiro.checkout.amount', { amount: formatAmount(charge.valor.original) })}
      </Typography>
      <TextField
        label={t('financeiro.checkout.brCode')}
        value={code}
        fullWidth
        multiline
        slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': 'checkout-brcode' } }}
      />
      <Button variant="contained" startIcon={<ContentCopyIcon />} onClick={() => void copy()} data-testid="checkout-copy">
        {copied ? t('financeiro.checkout.copied') : t('financeiro.checkout.copy')}
      </Button>
      <Alert severity="info" sx={{ width: '100%' }}>
        {charge.provider === 'efi' ? t('financeiro.checkout.waiting') : t('financeiro.checkout.manual')}
      </Alert>
    </Stack>
  );
}
