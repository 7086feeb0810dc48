import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import type { Channel, PlanFlag } from '@balcao/contracts';
import { useSession, useUser } from '../../api/session';
import {
  patchCachedConnection,
  useImportProgress,
  useWhatsapps,
  whatsappApi,
  whatsappListKey,
  type Connection,
} from '../../api/whatsapp';
import { metaConfigured, supportChatUrl } from '../../config';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ListPage } from '../../components/ListPage';
import { toast, toastError } from '../../components/toast';
import { ConnectionDialog } from './ConnectionDialog';
import { ConnectionsTable } from './ConnectionsTable';
import { MetaTokenDialog } from './MetaTokenDialog';
import { QrCodeDialog } from './QrCodeDialog';
import { useBusyIds } from './useBusyIds';

type Confirm = { kind: 'delete' | 'disconnect' | 'closeImported'; connection: Connection } | null;
type Editing = { id: number | null; channel: Channel } | null;

const CHANNEL_FLAGS: Record<Channel, PlanFlag> = { whatsapp: 'useWhatsapp', facebook: 'useFacebook', instagram: 'useInstagram' };

/** /connections (spec 1 §2, §4): the company's connections, live, with their session actions. */
export function ConnectionsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const { socket } = useSession();
  const queryClient = useQueryClient();
  const list = useWhatsapps(socket, user.companyId);
  const progress = useImportProgress(socket, user.companyId);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [metaToken, setMetaToken] = useState<{ instagram: boolean } | null>(null);
  const { busy, withBusy } = useBusyIds();
  const [restarting, setRestarting] = useState(false);

  const connections = list.data ?? [];
  const plan = user.company.plan;
  const planHas = (channel: Channel) => plan?.[CHANNEL_FLAGS[channel]] === true;
  const support = supportChatUrl();


  const connectMeta = async (instagram: boolean, userId: string, token: string, queueIds: number[]): Promise<boolean> => {
    try {
      const added = await whatsappApi.connectFacebook({ facebookUserId: userId, facebookUserToken: token, addInstagram: instagram, queueIds });
      toast.success(instagram ? t('connections.toasts.instagramSuccess') : t('connections.toasts.facebookSuccess'));
      if (added.length) void queryClient.invalidateQueries({ queryKey: whatsappListKey });
      return true;
    } catch (err) {
      toastError(err);
      return false;
    }
  };

  const add = (channel: Channel) => {
    setMenuAnchor(null);
    if (channel === 'whatsapp') setEditing({ id: null, channel });
    else setMetaToken({ instagram: channel === 'instagram' });
  };
  /** Why an entry of the add menu is off: the plan lacks the channel, or the server has no Meta app. */
  const unavailable = (channel: Channel): string | undefined => {
    if (!planHas(channel)) return t('connections.buttons.planLacks');
    if (channel !== 'whatsapp' && !metaConfigured()) return t('connectionSetup.meta.notConfigured');
    return undefined;
  };

  const restartAll = async () => {
    setRestarting(true);
    try {
      await whatsappApi.restartAll();
      toast.success(t('connections.toasts.restarting'));
    } catch (err) {
      toastError(err);
    } finally {
      setRestarting(false);
    }
  };

  const onConfirm = async () => {
    if (!confirm) return;
    const c = confirm.connection;
    try {
      if (confirm.kind === 'delete') {
        await whatsappApi.remove(c.id);
        queryClient.setQueryData<Connection[]>(whatsappListKey, (l) => l?.filter((x) => x.id !== c.id));
        toast.success(t('connections.toasts.deleted'));
      } else if (confirm.kind === 'disconnect') {
        await whatsappApi.disconnect(c.id);
      } else {
        await whatsappApi.closeImported(c.id);
        patchCachedConnection(queryClient, c.id, { statusImportMessages: null });
        toast.success(t('connections.toasts.done'));
      }
    } catch (err) {
      toastError(err);
    }
  };

  const confirmText = {
    delete: { title: t('connections.confirm.deleteTitle'), message: t('connections.confirm.deleteMessage') },
    disconnect: { title: t('connections.confirm.disconnectTitle'), message: t('connections.confirm.disconnectMessage') },
    closeImported: { title: t('connections.confirm.closeImportedTitle'), message: t('connections.confirm.closeImportedMessage') },
  };

  const actions = (
    <>
      <Button
        variant="outlined"
        startIcon={<RestartAltIcon />}
        onClick={() => void restartAll()}
        disabled={restarting || connections.length === 0}
        data-testid="connections-restart-all"
      >
        {t('connections.buttons.restartAll')}
      </Button>
      <Tooltip title={support ? '' : t('connections.buttons.supportUnavailable')}>
        <span>
          <Button
            variant="outlined"
            startIcon={<SupportAgentIcon />}
            disabled={!support}
            onClick={() => support && window.open(support, '_blank', 'noopener,noreferrer')}
            data-testid="connections-support"
          >
            {t('connections.buttons.support')}
          </Button>
        </span>
      </Tooltip>
      <Button variant="contained" startIcon={<AddIcon />} onClick={(e) => setMenuAnchor(e.currentTarget)} data-testid="connections-add">
        {t('connections.buttons.add')}
      </Button>
      <Menu anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => setMenuAnchor(null)}>
        {(
          [
            ['whatsapp', <WhatsAppIcon key="w" sx={{ color: '#25D366' }} />],
            ['facebook', <FacebookIcon key="f" sx={{ color: '#1877F2' }} />],
            ['instagram', <InstagramIcon key="i" sx={{ color: '#E1306C' }} />],
          ] as const
        ).map(([channel, icon]) => {
          const why = unavailable(channel);
          const item = (
            <MenuItem key={channel} disabled={why !== undefined} onClick={() => add(channel)} data-testid={`connections-add-${channel}`}>
              <ListItemIcon>{icon}</ListItemIcon>
              <ListItemText primary={t(`connections.buttons.${channel}`)} secondary={why} />
            </MenuItem>
          );
          // A disabled item gets no pointer events: a span carries its tooltip (enabled items stay the menu's own children).
          return why === undefined ? (
            item
          ) : (
            <Tooltip key={channel} title={why} placement="left">
              <span>{item}</span>
            </Tooltip>
          );
        })}
      </Menu>
    </>
  );

  return (
    <ListPage title={t('connections.title', { count: connections.length })} actions={actions} testId="connections-page">
      <ConnectionsTable
        connections={connections}
        loading={list.isPending}
        error={list.isError}
        onRetry={() => void list.refetch()}
        progress={progress}
        busyIds={busy}
        sessionActions={{
          onQrCode: (c) => setQrFor(c.id),
          onTryAgain: (c) => void withBusy(c.id, () => whatsappApi.startSession(c.id)),
          onNewQr: (c) => void withBusy(c.id, () => whatsappApi.newQr(c.id)),
          onDisconnect: (c) => setConfirm({ kind: 'disconnect', connection: c }),
          onCloseImported: (c) => setConfirm({ kind: 'closeImported', connection: c }),
        }}
        rowActions={{
          onEdit: (c) => setEditing({ id: c.id, channel: c.channel }),
          onDelete: (c) => setConfirm({ kind: 'delete', connection: c }),
        }}
      />
      {editing && <ConnectionDialog connectionId={editing.id} channel={editing.channel} onClose={() => setEditing(null)} />}
      {qrFor !== null && <QrCodeDialog connectionId={qrFor} onClose={() => setQrFor(null)} />}
      {metaToken && (
        <MetaTokenDialog
          instagram={metaToken.instagram}
          onClose={() => setMetaToken(null)}
          onSubmit={(userId, token, queueIds) => connectMeta(metaToken.instagram, userId, token, queueIds)}
        />
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm ? confirmText[confirm.kind].title : undefined}
        confirmLabel={t('connections.confirm.confirm')}
        onClose={() => setConfirm(null)}
        onConfirm={onConfirm}
      >
        {confirm ? confirmText[confirm.kind].message : null}
      </ConfirmDialog>
    </ListPage>
  );
}
