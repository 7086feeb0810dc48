import { useMemo } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import {
  HOURS_FORM_SUBMIT_DELAY_MS,
  RECURRENCES,
  createCompanyBody,
  updateCompanyBody,
  type Company,
} from '@balcao/contracts';
import { useSaveCompany } from '../../api/companies';
import { useAllPlans } from '../../api/plans';
import { sleep, toastSaveError } from '../../components/form';
import { SelectInput } from '../../components/fields/SelectInputs';
import { TextInput } from '../../components/fields/TextInputs';
import { formatAmount } from '../../components/format';
import { toast } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';

type FormIn = z.input<typeof createCompanyBody>;
type FormOut = z.output<typeof updateCompanyBody>;
type TextName = 'name' | 'email' | 'adminName' | 'password' | 'phone' | 'document' | 'paymentMethod' | 'street' | 'city' | 'state' | 'dueDate';

/** The company form (spec 1 §3, §5): submit delayed 500 ms; an empty due date is sent as null. */
export function CompanyDialog({ company, onClose }: { company: Company | null; onClose: () => void }) {
  const { t } = useTranslation();
  const isNew = company === null;
  const plans = useAllPlans();
  const save = useSaveCompany();
  const resolver = useMemo(
    () => (isNew ? zodResolver(createCompanyBody) : zodResolver(updateCompanyBody)) as Resolver<FormIn, unknown, FormOut>,
    [isNew],
  );
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver,
    defaultValues: {
      name: company?.name ?? '',
      email: company?.email ?? '',
      adminName: '',
      password: '',
      phone: company?.phone ?? '',
      document: company?.document ?? '',
      planId: company?.planId ?? ('' as unknown as number),
      status: company?.status ?? true,
      dueDate: company?.dueDate ?? '',
      recurrence: company?.recurrence ?? 'MENSAL',
      paymentMethod: company?.paymentMethod ?? '',
      street: company?.street ?? '',
      city: company?.city ?? '',
      state: company?.state ?? '',
      campaignsEnabled: company?.companieSettings.campaignsEnabled === 'enabled' ? 'enabled' : 'disabled',
    },
  });

  const onSubmit = async (values: FormOut) => {
    await sleep(HOURS_FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: company?.id ?? null, body: values });
      toast.success(t('companies.toasts.saved'));
      onClose();
    } catch (err) {
      toastSaveError(err, t('companies.toasts.saveFailed'));
    }
  };

  const text = (name: TextName, label: string, opts: { required?: boolean; type?: 'email' | 'password' | 'date'; hint?: string } = {}) => (
    <TextInput
      control={control}
      name={name}
      label={label}
      type={opts.type}
      required={opts.required}
      hint={opts.hint}
      transform={name === 'email' ? (v) => v.toLowerCase() : undefined}
      testId={`company-${name}`}
    />
  );

  const section = (label: string) => (
    <Grid size={12}>
      <Typography variant="overline" color="text.secondary">
        {label}
      </Typography>
    </Grid>
  );

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" scroll="paper" data-testid="company-dialog">
      <ClosableDialogTitle closeLabel={t('companies.dialog.close')} onClose={onClose}>
        {isNew ? t('companies.dialog.addTitle') : t('companies.dialog.editTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Grid container spacing={2}>
            {section(t('companies.dialog.sections.data'))}
            <Grid size={{ xs: 12, sm: 6 }}>{text('name', t('companies.dialog.name'), { required: true })}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{text('email', t('companies.dialog.email'), { required: true, type: 'email' })}</Grid>
            {isNew && (
              <Grid size={{ xs: 12, sm: 6 }}>{text('adminName', t('companies.dialog.adminName'), { hint: t('companies.dialog.adminNameHint') })}</Grid>
            )}
            <Grid size={{ xs: 12, sm: 4 }}>
              {text('password', t('companies.dialog.password'), {
                required: isNew,
                type: 'password',
                hint: isNew ? undefined : t('companies.dialog.passwordKeep'),
              })}
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>{text('phone', t('companies.dialog.phone'))}</Grid>
            <Grid size={{ xs: 12, sm: 4 }}>{text('document', t('companies.dialog.document'))}</Grid>

            {section(t('companies.dialog.sections.subscription'))}
            <Grid size={{ xs: 12, sm: 6 }}>
              <SelectInput
                control={control}
                name="planId"
                label={t('companies.dialog.plan')}
                required
                testId="company-planId"
                optionTestId={(id) => `company-plan-option-${id}`}
                options={(plans.data ?? []).map((p) => ({ value: p.id, label: `${p.name} — R$ ${formatAmount(p.amount)}` }))}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 3 }}>
              <SelectInput
                control={control}
                name="status"
                label={t('companies.dialog.status')}
                testId="company-status"
                options={[
                  { value: true, label: t('companies.dialog.yes') },
                  { value: false, label: t('companies.dialog.no') },
                ]}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 3 }}>
              <SelectInput
                control={control}
                name="recurrence"
                label={t('companies.dialog.recurrence')}
                testId="company-recurrence"
                options={RECURRENCES.map((r) => ({ value: r, label: t(`companies.recurrences.${r}`) }))}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{text('dueDate', t('companies.dialog.dueDate'), { type: 'date' })}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{text('paymentMethod', t('companies.dialog.paymentMethod'))}</Grid>

            {section(t('companies.dialog.sections.address'))}
            <Grid size={{ xs: 12, sm: 6 }}>{text('street', t('companies.dialog.street'))}</Grid>
            <Grid size={{ xs: 12, sm: 3 }}>{text('city', t('companies.dialog.city'))}</Grid>
            <Grid size={{ xs: 12, sm: 3 }}>{text('state', t('companies.dialog.state'))}</Grid>

            {section(t('companies.dialog.sections.settings'))}
            <Grid size={{ xs: 12, sm: 6 }}>
              <SelectInput
                control={control}
                name="campaignsEnabled"
                label={t('companies.dialog.campaignsEnabled')}
                testId="company-campaignsEnabled"
                options={[
                  { value: 'enabled', label: t('companies.dialog.enabled') },
                  { value: 'disabled', label: t('companies.dialog.disabled') },
                ]}
              />
            </Grid>
          </Grid>
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('companies.dialog.cancel')}
          submitLabel={isNew ? t('companies.dialog.add') : t('companies.dialog.save')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="company-submit"
        />
      </Box>
    </Dialog>
  );
}
