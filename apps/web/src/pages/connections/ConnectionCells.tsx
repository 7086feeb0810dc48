import { useEffect, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CropFreeIcon from '@mui/icons-material/CropFree';
import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import SignalCellular4BarIcon from '@mui/icons-material/SignalCellular4Bar';
import SignalCellularConnectedNoInternet0BarIcon from '@mui/icons-material/SignalCellularConnectedNoInternet0Bar';
import SignalCellularConnectedNoInternet2BarIcon from '@mui/icons-material/SignalCellularConnectedNoInternet2Bar';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import type { Channel } from '@balcao/contracts';
import type { Connection, ImportProgress } from '../../api/whatsapp';
import { formatConnectionDate, importState } from './connectionForm';

function TipContent({ title, content }: { title: string; content?: string }) {
  return (
    <Box>
      <Typography variant="subtitle2">{title}</Typography>
      {content && <Typography variant="body2">{content}</Typography>}
    </Box>
  );
}

/** Spec 1 §4 "Status icons": DISCONNECTED warning, qrcode QR icon, CONNECTED green, TIMEOUT and PAIRING one warning tooltip. */
export function StatusIcon({ status }: { status: string }) {
  const { t } = useTranslation();
  let icon: ReactElement;
  let tip: ReactElement | string;
  switch (status) {
    case 'DISCONNECTED':
      icon = <SignalCellularConnectedNoInternet0BarIcon color="error" />;
      tip = <TipContent title={t('connections.toolTips.disconnectedTitle')} content={t('connections.toolTips.disconnectedContent')} />;
      break;
    case 'qrcode':
      icon = <CropFreeIcon />;
      tip = <TipContent title={t('connections.toolTips.qrcodeTitle')} content={t('connections.toolTips.qrcodeContent')} />;
      break;
    case 'CONNECTED':
      icon = <SignalCellular4BarIcon sx={{ color: 'success.main' }} />;
      tip = t('connections.toolTips.connectedTitle');
      break;
    case 'TIMEOUT':
    case 'PAIRING':
      icon = <SignalCellularConnectedNoInternet2BarIcon color="warning" />;
      tip = <TipContent title={t('connections.toolTips.timeoutTitle')} content={t('connections.toolTips.timeoutContent')} />;
      break;
    default:
      icon = <CircularProgress size={22} />;
      tip = t('connections.status.OPENING');
  }
  return (
    <Tooltip title={tip} arrow>
      <Box
        component="span"
        data-testid="connection-status"
        data-status={status}
        role="img"
        aria-label={t(`connections.status.${status}`, { defaultValue: status })}
        sx={{ display: 'inline-flex', alignItems: 'center' }}
      >
        {icon}
      </Box>
    </Tooltip>
  );
}

export function ChannelIcon({ channel }: { channel: Channel | string }) {
  if (channel === 'facebook') return <FacebookIcon sx={{ color: '#1877F2' }} titleAccess="Facebook" />;
  if (channel === 'instagram') return <InstagramIcon sx={{ color: '#E1306C' }} titleAccess="Instagram" />;
  return <WhatsAppIcon sx={{ color: '#25D366' }} titleAccess="WhatsApp" />;
}

export function DefaultMark({ isDefault }: { isDefault: boolean }) {
  return isDefault ? <CheckCircleIcon sx={{ color: 'success.main' }} data-testid="connection-default" /> : null;
}

export function LastUpdate({ value }: { value: string | null | undefined }) {
  return <>{formatConnectionDate(value)}</>;
}

export interface SessionActions {
  onQrCode: (c: Connection) => void;
  onTryAgain: (c: Connection) => void;
  onNewQr: (c: Connection) => void;
  onDisconnect: (c: Connection) => void;
  onCloseImported: (c: Connection) => void;
}

/** Re-renders once when `until` passes (the end of the 35 s preparing state). */
function useNowAfter(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const wait = until - Date.now();
    if (wait <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), wait + 50);
    return () => clearTimeout(timer);
  }, [until]);
  return now;
}

/** The session column: the buttons of spec 1 §4 by status, then the history import's state. */
export function SessionCell({
  connection: c,
  progress,
  actions,
  busy,
}: {
  connection: Connection;
  progress: ImportProgress | undefined;
  actions: SessionActions | null;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const stateNow = importState(c.statusImportMessages);
  const now = useNowAfter(stateNow.kind === 'preparing' ? stateNow.until : null);
  const state = importState(c.statusImportMessages, now);
  const small = { size: 'small' as const, disabled: busy };
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="connection-session">
      {actions && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          {c.status === 'qrcode' && (
            <Button {...small} variant="contained" onClick={() => actions.onQrCode(c)} data-testid="connection-qr-button">
              {t('connections.buttons.qrcode')}
            </Button>
          )}
          {c.status === 'OPENING' && (
            <Button size="small" variant="outlined" disabled startIcon={<CircularProgress size={14} />} data-testid="connection-connecting">
              {t('connections.buttons.connecting')}
            </Button>
          )}
          {c.status === 'DISCONNECTED' && (
            <>
              <Button {...small} variant="outlined" onClick={() => actions.onTryAgain(c)} data-testid="connection-try-again">
                {t('connections.buttons.tryAgain')}
              </Button>
              {c.channel === 'whatsapp' && (
                <Button {...small} variant="outlined" color="secondary" onClick={() => actions.onNewQr(c)} data-testid="connection-new-qr">
                  {t('connections.buttons.newQr')}
                </Button>
              )}
            </>
          )}
          {(c.status === 'CONNECTED' || c.status === 'PAIRING' || c.status === 'TIMEOUT') && (
            <Button {...small} variant="outlined" color="error" onClick={() => actions.onDisconnect(c)} data-testid="connection-disconnect">
              {t('connections.buttons.disconnect')}
            </Button>
          )}
        </Stack>
      )}
      {state.kind === 'preparing' && (
        <Button size="small" variant="outlined" disabled startIcon={<CircularProgress size={14} />} data-testid="connection-import-preparing">
          {t('connections.buttons.preparing')}
        </Button>
      )}
      {progress ? (
        <Box sx={{ width: '100%', minWidth: 180 }} data-testid="connection-import-progress">
          <Typography variant="caption" color="text.secondary">
            {t('connections.import.progress', {
              processed: progress.processed,
              total: progress.total,
              date: formatConnectionDate(progress.date),
            })}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <LinearProgress variant="determinate" value={Math.max(0, Math.min(100, progress.percent))} sx={{ flex: 1 }} />
            <Typography variant="caption">{`${Math.round(progress.percent)}%`}</Typography>
          </Stack>
        </Box>
      ) : (
        state.kind === 'running' && (
          <Typography variant="caption" color="text.secondary" data-testid="connection-import-running">
            {t('connections.import.running')}
          </Typography>
        )
      )}
      {state.kind === 'closeTickets' && actions && (
        <Button {...small} variant="outlined" color="warning" onClick={() => actions.onCloseImported(c)} data-testid="connection-close-imported">
          {t('connections.buttons.closeImported')}
        </Button>
      )}
    </Stack>
  );
}
