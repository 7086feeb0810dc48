import { useState, type ReactNode } from 'react';
import { useController, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import { INFINITE_SCROLL_THRESHOLD_PX, SEARCH_DEBOUNCE_MS } from '@balcao/contracts';
import { request } from '../../api/http';
import { usePagedList, type RecordSource } from '../../api/pagedList';
import { nearBottom, useDebouncedValue } from '../form';
import { helperText, type FieldProps } from './fieldProps';

interface Named {
  id: number;
  name: string;
}

interface RecordSelectProps<P extends { hasMore: boolean }, T extends Named, E> {
  source: RecordSource<P, T, E>;
  value: number | null;
  onChange: (id: number | null) => void;
  label: ReactNode;
  /** The input's test id; each option's is `<testId>-<id>`. */
  testId: string;
  /** False: nothing is asked of the server (the plan lacks the feature). */
  enabled?: boolean;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  /** Shown while nothing is chosen ('Nenhuma'). */
  placeholder?: string;
  /** Options are asked for only from this many typed characters (a user: 3); `searchHint` says so meanwhile. */
  minSearch?: number;
  searchHint?: ReactNode;
  /** When the search finds nothing (default: the lists' 'Nenhum registro encontrado.'). */
  emptyText?: ReactNode;
  onBlur?: () => void;
  sx?: SxProps<Theme>;
}

/**
 * One record of a paged list: the typed text searches the list's endpoint (`searchParam`,
 * debounced like the list pages) and scrolling the options near their end (or arrowing to the last
 * one) loads the next page, so every record is reachable. A chosen record outside the loaded pages
 * is fetched by id, so the field shows its name from the start. Clearing it chooses none.
 */
export function RecordSelect<P extends { hasMore: boolean }, T extends Named, E>(props: RecordSelectProps<P, T, E>) {
  const { source, value, onChange, testId, enabled = true, minSearch = 0 } = props;
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  // Debounced as the list's own search is, so both agree on when it may be asked.
  const searchable = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS).trim().length >= minSearch;
  const paged = usePagedList(source, enabled && searchable);
  const search = (text: string) => {
    setTyped(text);
    paged.setSearch(text);
  };
  const loaded = value === null ? undefined : paged.records.find((r) => r.id === value);
  const chosen = useQuery({
    // Not under the list's key: the list's cache updates treat every query there as pages.
    queryKey: ['recordSelect', value === null ? null : source.one(value)],
    queryFn: ({ signal }) => request<T>(source.one(value!), { signal }),
    enabled: enabled && value !== null && !loaded,
    staleTime: Infinity,
  });
  const current = loaded ?? (chosen.data?.id === value ? chosen.data : undefined);
  const shown: Named | null = value === null ? null : { id: value, name: current?.name ?? '' };
  const last = paged.records[paged.records.length - 1];
  return (
    <Autocomplete<Named>
      size="small"
      fullWidth
      sx={props.sx}
      disabled={props.disabled}
      options={searchable ? paged.records : []}
      value={shown}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(o) => o}
      loading={paged.state.loading || paged.state.loadingMore}
      loadingText={t('ui.list.loading')}
      noOptionsText={!searchable ? props.searchHint : paged.state.error ? t('ui.list.error') : (props.emptyText ?? t('ui.list.empty'))}
      onInputChange={(_e, text, reason) => search(reason === 'input' ? text : '')}
      onClose={() => search('')}
      onChange={(_e, next) => onChange(next?.id ?? null)}
      onHighlightChange={(_e, option) => option && option.id === last?.id && paged.loadMore()}
      onBlur={props.onBlur}
      slotProps={{
        listbox: {
          onScroll: (e: React.UIEvent<HTMLElement>) => nearBottom(e.currentTarget, INFINITE_SCROLL_THRESHOLD_PX) && paged.loadMore(),
        },
      }}
      renderOption={({ key: _key, ...optionProps }, option) => (
        <li key={option.id} {...optionProps} data-testid={`${testId}-${option.id}`}>
          {option.name}
        </li>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label}
          required={props.required}
          error={props.error}
          helperText={props.helperText}
          placeholder={props.placeholder}
          slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': testId } }}
        />
      )}
    />
  );
}

interface RecordSelectInputProps<T extends FieldValues, O, N extends FieldPath<T>, P extends { hasMore: boolean }, R extends Named, E> extends FieldProps<T, O, N> {
  source: RecordSource<P, R, E>;
  enabled?: boolean;
  placeholder?: string;
}

/** `RecordSelect` bound to a form field holding the record's id (or null). */
export function RecordSelectInput<T extends FieldValues, O, N extends FieldPath<T>, P extends { hasMore: boolean }, R extends Named, E>(
  props: RecordSelectInputProps<T, O, N, P, R, E>,
) {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  const value: unknown = field.value;
  return (
    <RecordSelect
      source={props.source}
      enabled={props.enabled}
      value={typeof value === 'number' ? value : null}
      onChange={field.onChange}
      onBlur={field.onBlur}
      label={props.label}
      testId={props.testId ?? String(props.name)}
      required={props.required}
      disabled={props.disabled}
      sx={props.sx}
      placeholder={props.placeholder}
      error={!!fieldState.error}
      helperText={helperText(fieldState.error, props.errorText, props.hint)}
    />
  );
}
