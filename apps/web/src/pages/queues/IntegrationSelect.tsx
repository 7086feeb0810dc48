import type { Control, FieldValues, Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../api/session';
import { useQueueIntegrationOptions } from '../../api/queueIntegrations';
import { SelectInput } from '../../components/fields/SelectInputs';
import '../queue-integrations/texts';

/** The queue's integration (issue 16), offered only when the plan has useIntegrations. */
export function IntegrationSelect<T extends FieldValues>({ control, name }: { control: Control<T>; name: Path<T> }) {
  const { t } = useTranslation();
  const allowed = useUser().company.plan?.useIntegrations === true;
  const options = useQueueIntegrationOptions(allowed);
  if (!allowed) return null;
  return (
    <SelectInput
      control={control}
      name={name}
      label={t('queueIntegrations.queueSelect.label')}
      options={options.data ?? []}
      noneLabel={t('queueIntegrations.queueSelect.none')}
      testId="queue-integrationId"
    />
  );
}
