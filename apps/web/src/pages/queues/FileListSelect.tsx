import type { Control, FieldValues, Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fileListPages } from '../../api/fileLists';
import { RecordSelectInput } from '../../components/fields/RecordSelect';
import '../files/texts';

/** The queue's file list (issue 16), searched among all of the company's. */
export function FileListSelect<T extends FieldValues>({ control, name }: { control: Control<T>; name: Path<T> }) {
  const { t } = useTranslation();
  return <RecordSelectInput control={control} name={name} source={fileListPages} label={t('fileLists.queueSelect.label')} placeholder={t('fileLists.queueSelect.none')} testId="queue-fileListId" />;
}
