import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { FORM_SUBMIT_DELAY_MS, PLAN_FLAGS, createPlanBody, type Plan } from '@balcao/contracts';
import { useAllPlans, useDeletePlan, usePlansLive, useSavePlan } from '../../api/plans';
import { sleep, toastSaveError } from '../../components/form';
import { SwitchInput } from '../../components/fields/SwitchInput';
import { TextInput } from '../../components/fields/TextInputs';
import { formatAmount } from '../../components/format';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { toast } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';

type FormIn = z.input<typeof createPlanBody>;
type FormOut = z.output<typeof createPlanBody>;
type NumberField = 'users' | 'connections' | 'queues' | 'amount';

function defaults(plan: Plan | null): FormIn {
  const flags = Object.fromEntries(PLAN_FLAGS.map((f) => [f, plan ? plan[f] : true]));
  return {
    name: plan?.name ?? '',
    users: plan?.users ?? 1,
    connections: plan?.connections ?? 1,
    queues: plan?.queues ?? 1,
    amount: plan?.amount ?? '0.00',
    isPublic: plan?.isPublic ?? true,
    ...flags,
  };
}

function PlanDialog({ plan, onClose }: { plan: Plan | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSavePlan();
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(createPlanBody), defaultValues: defaults(plan) });

  const onSubmit = async (values: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: plan?.id ?? null, body: values });
      toast.success(t('settings.plans.toasts.saved'));
      onClose();
    } catch (err) {
      toastSaveError(err, t('settings.plans.toasts.saveFailed'));
    }
  };

  // Amounts may be typed with a comma: text with a decimal keypad, the schema parses it.
  const number = (name: NumberField, label: string) => (
    <TextInput control={control} name={name} label={label} required inputProps={{ inputMode: 'decimal' }} testId={`plan-${name}`} />
  );

  const flag = (name: (typeof PLAN_FLAGS)[number] | 'isPublic', label: string) => (
    <SwitchInput control={control} name={name} label={label} testId={`plan-${name}`} />
  );

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="plan-dialog">
      <ClosableDialogTitle closeLabel={t('settings.plans.dialog.close')} onClose={onClose}>
        {plan ? t('settings.plans.dialog.editTitle') : t('settings.plans.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Grid container spacing={2} sx={{ pt: 1 }}>
            <Grid size={{ xs: 12, sm: 8 }}>
              <TextInput control={control} name="name" label={t('settings.plans.dialog.name')} required autoFocus testId="plan-name" />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>{number('amount', t('settings.plans.dialog.amount'))}</Grid>
            <Grid size={{ xs: 12, sm: 4 }}>{number('users', t('settings.plans.dialog.users'))}</Grid>
            <Grid size={{ xs: 12, sm: 4 }}>{number('connections', t('settings.plans.dialog.connections'))}</Grid>
            <Grid size={{ xs: 12, sm: 4 }}>{number('queues', t('settings.plans.dialog.queues'))}</Grid>
            <Grid size={12}>{flag('isPublic', t('settings.plans.dialog.isPublic'))}</Grid>
            <Grid size={12}>
              <Typography variant="overline" color="text.secondary">
                {t('settings.plans.dialog.features')}
              </Typography>
            </Grid>
            {PLAN_FLAGS.map((f) => (
              <Grid key={f} size={{ xs: 12, sm: 6 }}>
                {flag(f, t(`settings.plans.flags.${f}`))}
              </Grid>
            ))}
          </Grid>
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('settings.plans.dialog.cancel')}
          submitLabel={plan ? t('settings.plans.dialog.save') : t('settings.plans.dialog.add')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="plan-submit"
        />
      </Box>
    </Dialog>
  );
}

/** Settings → plans (super user): limits, price, public flag and every feature flag. */
export function PlansManager() {
  const { t } = useTranslation();
  const plans = useAllPlans();
  usePlansLive(true);
  const remove = useDeletePlan();
  const [editing, setEditing] = useState<{ plan: Plan | null } | null>(null);
  const list = plans.data ?? [];

  return (
    <Stack spacing={2} data-testid="plans-manager">
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ plan: null })} data-testid="plans-add">
          {t('settings.plans.add')}
        </Button>
      </Box>
      <Paper variant="outlined" sx={{ overflow: 'auto' }}>
        <ListTable
          testId="plans-table"
          state={{ loading: plans.isPending, error: plans.isError, empty: plans.isSuccess && list.length === 0, onRetry: () => void plans.refetch() }}
          columns={[
            { label: t('settings.plans.columns.name') },
            { label: t('settings.plans.columns.users'), align: 'center' },
            { label: t('settings.plans.columns.connections'), align: 'center' },
            { label: t('settings.plans.columns.queues'), align: 'center' },
            { label: t('settings.plans.columns.amount'), align: 'right' },
            { label: t('settings.plans.columns.isPublic'), align: 'center' },
            { label: t('settings.plans.columns.features') },
            { label: t('settings.plans.columns.actions'), align: 'center' },
          ]}
        >
          {list.map((plan) => (
            <TableRow key={plan.id} hover data-testid={`plan-row-${plan.id}`}>
              <TableCell>{plan.name}</TableCell>
              <TableCell align="center">{plan.users}</TableCell>
              <TableCell align="center">{plan.connections}</TableCell>
              <TableCell align="center">{plan.queues}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                R$ {formatAmount(plan.amount)}
              </TableCell>
              <TableCell align="center">{plan.isPublic ? t('ui.yesNo.yes') : t('ui.yesNo.no')}</TableCell>
              <TableCell>
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                  {PLAN_FLAGS.filter((f) => plan[f]).map((f) => (
                    <Chip key={f} size="small" variant="outlined" label={t(`settings.plans.flags.${f}`)} />
                  ))}
                </Stack>
              </TableCell>
              <RowActions
                id={plan.id}
                testIdPrefix="plan"
                onEdit={() => setEditing({ plan })}
                remove={{
                  title: t('settings.plans.confirmDelete.title', { name: plan.name }),
                  message: t('settings.plans.confirmDelete.message'),
                  deletedText: t('settings.plans.toasts.deleted'),
                  run: (id) => remove.mutateAsync(id),
                }}
              />
            </TableRow>
          ))}
        </ListTable>
      </Paper>
      {editing && <PlanDialog plan={editing.plan} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
