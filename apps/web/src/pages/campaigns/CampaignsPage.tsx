import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import AddIcon from '@mui/icons-material/Add';
import AssessmentIcon from '@mui/icons-material/Assessment';
import PauseCircleOutlineIcon from '@mui/icons-material/PauseCircleOutline';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutline';
import SettingsIcon from '@mui/icons-material/Settings';
import type { Campaign } from '@balcao/contracts';
import { usePagedList } from '../../api/pagedList';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';
import { ListPage, SearchField } from '../../components/ListPage';
import { ListState } from '../../components/ListStates';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { toast, toastError } from '../../components/toast';
import { CampaignDialog } from './CampaignDialog';
import { CampaignSettingsForm } from './CampaignSettingsForm';
import { dateTime } from './format';
import { campaignsList, useCampaignAction, useCampaignSettings, useDeleteCampaign } from './queries';
import './texts';

function SettingsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const settings = useCampaignSettings();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" data-testid="campaign-settings-dialog">
      <ClosableDialogTitle closeLabel={t('campaigns.settingsDialog.close')} onClose={onClose}>
        {t('campaigns.settingsDialog.title')}
      </ClosableDialogTitle>
      <DialogContent dividers>
        {settings.data ? (
          <CampaignSettingsForm values={settings.data} onSaved={onClose} />
        ) : (
          <ListState loading={settings.isPending} error={settings.isError} empty={false} onRetry={() => void settings.refetch()} />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** /campaigns (spec 3 §2): search, Settings, add; the table with stop (EM_ANDAMENTO), restart (CANCELADA), report, edit and delete. */
export function CampaignsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = usePagedList(campaignsList);
  const remove = useDeleteCampaign();
  const action = useCampaignAction();
  const [editing, setEditing] = useState<{ campaign: Campaign | null } | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);

  const run = async (c: Campaign, kind: 'cancel' | 'restart') => {
    try {
      await action.mutateAsync({ id: c.id, action: kind });
      toast.success(t(kind === 'cancel' ? 'campaigns.toasts.cancelled' : 'campaigns.toasts.restarted'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <ListPage
      testId="campaigns-page"
      title={t('campaigns.title')}
      onNearBottom={list.loadMore}
      actions={
        <>
          <SearchField value={list.search} onChange={list.setSearch} testId="campaigns-search" />
          <Button variant="outlined" startIcon={<SettingsIcon />} onClick={() => setSettingsOpen(true)} data-testid="campaigns-settings">
            {t('campaigns.settings')}
          </Button>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ campaign: null })} data-testid="campaigns-add">
            {t('campaigns.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="campaigns-table"
        state={list.state}
        columns={[
          { label: t('campaigns.columns.name') },
          { label: t('campaigns.columns.status') },
          { label: t('campaigns.columns.contactList') },
          { label: t('campaigns.columns.whatsapp') },
          { label: t('campaigns.columns.scheduledAt') },
          { label: t('campaigns.columns.completedAt') },
          { label: t('campaigns.columns.confirmation') },
          { label: t('campaigns.columns.actions'), align: 'center', width: 220 },
        ]}
      >
        {list.records.map((c) => (
          <TableRow key={c.id} hover data-testid={`campaign-row-${c.id}`}>
            <TableCell>{c.name}</TableCell>
            <TableCell data-testid="campaign-status" data-status={c.status}>
              {t(`campaigns.status.${c.status}`)}
            </TableCell>
            <TableCell>{c.contactList?.name ?? t('campaigns.notDefined')}</TableCell>
            <TableCell>{c.whatsapp?.name ?? t('campaigns.notDefined')}</TableCell>
            <TableCell>{c.scheduledAt ? dateTime(c.scheduledAt) : t('campaigns.noSchedule')}</TableCell>
            <TableCell>{c.completedAt ? dateTime(c.completedAt) : t('campaigns.notCompleted')}</TableCell>
            <TableCell>{c.confirmation ? t('campaigns.enabled') : t('campaigns.disabled')}</TableCell>
            <RowActions
              id={c.id}
              testIdPrefix="campaign"
              onEdit={() => setEditing({ campaign: c })}
              extra={[
                ...(c.status === 'EM_ANDAMENTO'
                  ? [{ label: t('campaigns.actions.stop'), icon: <PauseCircleOutlineIcon fontSize="small" />, onClick: () => void run(c, 'cancel'), testId: `campaign-stop-${c.id}` }]
                  : []),
                ...(c.status === 'CANCELADA'
                  ? [{ label: t('campaigns.actions.restart'), icon: <PlayCircleOutlineIcon fontSize="small" />, onClick: () => void run(c, 'restart'), testId: `campaign-restart-${c.id}` }]
                  : []),
                { label: t('campaigns.actions.report'), icon: <AssessmentIcon fontSize="small" />, onClick: () => void navigate(`/campaign/${c.id}/report`), testId: `campaign-report-${c.id}` },
              ]}
              remove={{
                title: t('campaigns.confirmDelete.title', { name: c.name }),
                message: t('campaigns.confirmDelete.message'),
                deletedText: t('campaigns.toasts.deleted'),
                run: (id) => remove.mutateAsync(id),
              }}
            />
          </TableRow>
        ))}
      </ListTable>
      {editing && <CampaignDialog campaign={editing.campaign} onClose={() => setEditing(null)} />}
      {settingsOpen && <SettingsDialog onClose={() => setSettingsOpen(false)} />}
    </ListPage>
  );
}
