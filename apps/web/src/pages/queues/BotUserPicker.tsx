import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useUserSearch } from '../../api/chatbots';
import './bot-texts';

interface Props {
  userId: number | null;
  onChange: (userId: number | null) => void;
  error?: string;
}

/** The attendant of an `attendent` option: users are searched from the third typed letter (spec 3 §5). */
export function BotUserPicker({ userId, onChange, error }: Props) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [chosen, setChosen] = useState<{ id: number; name: string } | null>(null);
  const search = useUserSearch(input);
  const options = search.data ?? [];
  const value = chosen && chosen.id === userId ? chosen : userId ? { id: userId, name: `#${userId}` } : null;
  return (
    <Autocomplete
      size="small"
      options={options.map((u) => ({ id: u.id, name: u.name }))}
      value={value}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(o) => o}
      loading={search.isFetching}
      noOptionsText={input.trim().length < 3 ? t('queueBot.userSearchHint') : t('queueBot.noUsers')}
      onInputChange={(_e, text) => setInput(text)}
      onChange={(_e, next) => {
        setChosen(next);
        onChange(next?.id ?? null);
      }}
      renderInput={(params) => (
        <TextField {...params} label={t('queueBot.targetUser')} required error={!!error} helperText={error ?? t('queueBot.userSearchHint')} inputProps={{ ...params.inputProps, 'data-testid': 'bot-option-user' }} />
      )}
    />
  );
}
