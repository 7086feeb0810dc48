import type { Control, FieldValues, Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../api/session';
import { queueIntegrationPages } from '../../api/queueIntegrations';
import { RecordSelectInput } from '../../components/fields/RecordSelect';
import '../queue-integrations/texts';

/** The queue's integration (issue 16), searched among all of the company's; offered only when the plan has useIntegrations. */
export function IntegrationSelect<T extends FieldValues>({ control, name }: { control: Control<T>; name: Path<T> }) {
  const { t } = useTranslation();
  const allowed = useUser().company.plan?.useIntegrations === true;
  if (!allowed) return null;
  return (
    <RecordSelectInput control={control} name={name} source={queueIntegrationPages} label={t('queueIntegrations.queueSelect.label')} placeholder={t('queueIntegrations.queueSelect.none')} testId="queue-integrationId" />
  );
}
