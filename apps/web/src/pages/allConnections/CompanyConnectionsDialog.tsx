import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QRCodeSVG } from 'qrcode.react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { whatsappApi, whatsappCompanyKey, type Connection } from '../../api/whatsapp';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { toast } from '../../components/toast';
import { ConnectionsTable } from '../connections/ConnectionsTable';
import { useBusyIds } from '../connections/useBusyIds';

/**
 * Another company's sessions never reach the super user's socket (it listens under its own company):
 * while the dialog is open its list and QR code are read again every few seconds instead.
 */
const POLL_MS = 3000;

type Confirm = { kind: 'disconnect' | 'closeImported'; connection: Connection } | null;

/** The QR code of another company's connection, read from the API until it is scanned. */
function CompanyQrDialog({ connectionId, onClose }: { connectionId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const one = useQuery({ queryKey: ['whatsapp', 'one', connectionId], queryFn: () => whatsappApi.one(connectionId), refetchInterval: POLL_MS });
  const qrcode = one.data?.status === 'qrcode' ? (one.data.qrcode ?? '') : '';
  return (
    <Dialog open onClose={onClose} data-testid="company-qr-dialog" aria-labelledby="company-qr-title">
      <DialogTitle id="company-qr-title">{t('connections.qrCode.title')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', justifyContent: 'center', minWidth: 300 }}>
        {qrcode ? (
          <Box sx={{ bgcolor: '#fff', p: 1 }}>
            <QRCodeSVG value={qrcode} size={256} marginSize={2} role="img" aria-label={t('connections.qrCode.title')} />
          </Box>
        ) : (
          <CircularProgress aria-label={t('connections.qrCode.waiting')} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('ui.actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** 'Conexões de: {company name}': that company's connections, which the super user restarts, disconnects or re-pairs. */
export function CompanyConnectionsDialog({ company, onClose }: { company: { id: number; name: string }; onClose: () => void }) {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: whatsappCompanyKey(company.id),
    queryFn: () => whatsappApi.ofCompany(company.id),
    retry: false,
    refetchInterval: POLL_MS,
  });
  const { busy, withBusy } = useBusyIds();
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);

  /** A session call with the row's buttons disabled meanwhile, then the list read again. */
  const run = async (id: number, call: () => Promise<unknown>) => {
    if (await withBusy(id, call)) toast.success(t('connections.toasts.done'));
    void list.refetch();
  };

  const confirmText = {
    disconnect: { title: t('connections.confirm.disconnectTitle'), message: t('connections.confirm.disconnectMessage') },
    closeImported: { title: t('connections.confirm.closeImportedTitle'), message: t('connections.confirm.closeImportedMessage') },
  };

  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth scroll="paper" data-testid="company-connections-dialog">
      <DialogTitle>{t('allConnections.dialogTitle', { name: company.name })}</DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        <ConnectionsTable
          connections={list.data ?? []}
          loading={list.isPending}
          error={list.isError}
          onRetry={() => void list.refetch()}
          busyIds={busy}
          sessionActions={{
            onQrCode: (c) => setQrFor(c.id),
            onTryAgain: (c) => void run(c.id, () => whatsappApi.startSession(c.id)),
            onNewQr: (c) => void run(c.id, () => whatsappApi.newQr(c.id)),
            onDisconnect: (c) => setConfirm({ kind: 'disconnect', connection: c }),
            onCloseImported: (c) => setConfirm({ kind: 'closeImported', connection: c }),
          }}
          rowActions={null}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('ui.actions.close')}</Button>
      </DialogActions>
      {qrFor !== null && <CompanyQrDialog connectionId={qrFor} onClose={() => setQrFor(null)} />}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm ? confirmText[confirm.kind].title : undefined}
        confirmLabel={t('connections.confirm.confirm')}
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          if (!confirm) return;
          const { id } = confirm.connection;
          return run(id, () => (confirm.kind === 'disconnect' ? whatsappApi.disconnect(id) : whatsappApi.closeImported(id)));
        }}
      >
        {confirm ? confirmText[confirm.kind].message : null}
      </ConfirmDialog>
    </Dialog>
  );
}
