import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QRCodeSVG } from 'qrcode.react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { companyEvent, type WhatsappSessionEventPayload } from '@balcao/contracts';
import { useSession, useUser } from '../../api/session';
import { patchCachedConnection, useWhatsapps, whatsappApi } from '../../api/whatsapp';

/**
 * The QR dialog (spec 1 §4): shows the connection's QR code from the cache, which
 * the session events keep current, and closes itself when an update for its
 * session arrives with an empty QR code (scanned, or the session ended).
 */
export function QrCodeDialog({ connectionId, onClose }: { connectionId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const user = useUser();
  const { socket } = useSession();
  const queryClient = useQueryClient();
  const list = useWhatsapps(null, user.companyId);
  const connection = list.data?.find((c) => c.id === connectionId);
  const qrcode = connection?.qrcode ?? '';
  // Pairing code (spec: status PAIRING): the code travels in `qrcode`.
  const pairingCode = connection?.status === 'PAIRING' ? qrcode : '';
  const [phone, setPhone] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const askCode = () => {
    setAsking(true);
    whatsappApi
      .pairByPhone(connectionId, phone ?? '')
      .catch(() => undefined)
      .finally(() => setAsking(false));
  };

  // GET /whatsapp/{id} reads the current QR code once, in case the list is older than the dialog
  // (it fills a missing code; the session events alone clear it).
  useEffect(() => {
    let cancelled = false;
    whatsappApi
      .one(connectionId)
      .then((c) => {
        if (!cancelled && c.qrcode) patchCachedConnection(queryClient, connectionId, { qrcode: c.qrcode, status: c.status });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [connectionId, queryClient]);

  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    if (!socket) return;
    const event = companyEvent(user.companyId, 'whatsappSession');
    const onSession = (payload: WhatsappSessionEventPayload) => {
      if (payload?.session?.id === connectionId && !payload.session.qrcode) close.current();
    };
    socket.on(event, onSession);
    return () => {
      socket.off(event, onSession);
    };
  }, [socket, user.companyId, connectionId]);

  // A deleted connection has no QR code to show.
  const gone = list.isSuccess && !connection;
  useEffect(() => {
    if (gone) close.current();
  }, [gone]);

  return (
    <Dialog open onClose={onClose} maxWidth="sm" data-testid="qrcode-dialog">
      <DialogTitle>{connection ? `${t('connections.qrCode.title')} - ${connection.name}` : t('connections.qrCode.title')}</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, minWidth: { sm: 360 } }}>
          <Typography color="primary" sx={{ fontWeight: 600 }}>
            {t('connections.qrCode.message')}
          </Typography>
          {pairingCode ? (
            <Typography data-testid="pairing-code" variant="h3" sx={{ fontFamily: 'monospace', letterSpacing: 6, my: 4 }}>
              {pairingCode.length === 8 ? `${pairingCode.slice(0, 4)}-${pairingCode.slice(4)}` : pairingCode}
            </Typography>
          ) : qrcode ? (
            <Box data-testid="qrcode-image" data-value={qrcode} sx={{ p: 2, bgcolor: '#fff', borderRadius: 1, lineHeight: 0 }}>
              <QRCodeSVG value={qrcode} size={256} marginSize={2} role="img" aria-label={t('connections.qrCode.title')} />
            </Box>
          ) : (
            <Box data-testid="qrcode-waiting" sx={{ height: 288, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1 }}>
              <CircularProgress />
              <Typography color="text.secondary">{t('connections.qrCode.waiting')}</Typography>
            </Box>
          )}
          <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 360, textAlign: 'center' }}>
            {t(pairingCode ? 'connections.qrCode.codeSteps' : 'connections.qrCode.steps')}
          </Typography>
          {!pairingCode && connection?.channel === 'whatsapp' && (phone === null ? (
            <Button size="small" onClick={() => setPhone('')} data-testid="pairing-use-phone">
              {t('connections.qrCode.usePhone')}
            </Button>
          ) : (
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <TextField size="small" label={t('connections.qrCode.phoneNumber')} value={phone} onChange={(e) => setPhone(e.target.value)} inputProps={{ inputMode: 'tel', 'data-testid': 'pairing-phone' }} />
              <Button variant="contained" disabled={asking || phone.replace(/\D/g, '').length < 8} onClick={askCode} data-testid="pairing-get-code">
                {t('connections.qrCode.getCode')}
              </Button>
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="qrcode-close">
          {t('ui.actions.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
