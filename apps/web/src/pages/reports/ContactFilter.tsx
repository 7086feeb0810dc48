import './texts';
import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { CONTACT_SEARCH_MIN, useContactOptions, type ReportFilterValues } from './reportQueries';

type ContactChoice = NonNullable<ReportFilterValues['contact']> & { label: string };

const DEBOUNCE_MS = 500;

/** Contact autocomplete (500 ms debounce): from 3 characters, the typed text itself and the company's contacts matching it. */
export function ContactFilter({ value, onChange }: { value: ReportFilterValues['contact']; onChange: (v: ReportFilterValues['contact']) => void }) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(input.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);
  const contacts = useContactOptions(search);
  const options: ContactChoice[] = [
    ...(search.length >= CONTACT_SEARCH_MIN ? [{ id: null, text: search, label: t('reports.filters.freeText', { text: search }) }] : []),
    ...(contacts.data?.contacts ?? []).map((c) => ({ id: c.id, text: c.name, label: c.name })),
  ];
  const selected: ContactChoice | null = value ? { ...value, label: value.text } : null;
  return (
    <Autocomplete
      size="small"
      options={options}
      value={selected}
      filterOptions={(o) => o}
      loading={contacts.isFetching}
      getOptionLabel={(o) => o.label}
      getOptionKey={(o) => (o.id === null ? `text:${o.text}` : o.id)}
      isOptionEqualToValue={(a, b) => a.id === b.id && a.text === b.text}
      onInputChange={(_e, text, reason) => reason === 'input' && setInput(text)}
      onChange={(_e, choice) => onChange(choice ? { id: choice.id, text: choice.text } : null)}
      noOptionsText={t('reports.filters.noContacts')}
      renderInput={(params) => <TextField {...params} label={t('reports.filters.contact')} data-testid="report-contact" />}
    />
  );
}
