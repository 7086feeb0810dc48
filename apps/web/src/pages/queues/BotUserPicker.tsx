import { useTranslation } from 'react-i18next';
import { usersList } from '../../api/users';
import { RecordSelect } from '../../components/fields/RecordSelect';
import './bot-texts';

interface Props {
  userId: number | null;
  onChange: (userId: number | null) => void;
  error?: string;
}

/** The attendant of an `attendent` option: users are searched from the third typed letter (spec 3 §5). */
export function BotUserPicker({ userId, onChange, error }: Props) {
  const { t } = useTranslation();
  return (
    <RecordSelect
      source={usersList}
      value={userId}
      onChange={onChange}
      label={t('queueBot.targetUser')}
      required
      minSearch={3}
      searchHint={t('queueBot.userSearchHint')}
      emptyText={t('queueBot.noUsers')}
      error={!!error}
      helperText={error ?? t('queueBot.userSearchHint')}
      testId="bot-option-user"
    />
  );
}
