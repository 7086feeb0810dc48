import type { Control, FieldValues, Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFileListOptions } from '../../api/fileLists';
import { SelectInput } from '../../components/fields/SelectInputs';
import '../files/texts';

/** The queue's file list (issue 16). */
export function FileListSelect<T extends FieldValues>({ control, name }: { control: Control<T>; name: Path<T> }) {
  const { t } = useTranslation();
  const options = useFileListOptions();
  return (
    <SelectInput control={control} name={name} label={t('fileLists.queueSelect.label')} options={options.data ?? []} noneLabel={t('fileLists.queueSelect.none')} testId="queue-fileListId" />
  );
}
