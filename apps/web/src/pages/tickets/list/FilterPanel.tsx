import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useTagOptions, useUserOptions, type Option } from './ticketQueries';
import { useConnectionOptions } from '../../../api/users';

/** The search view's filters (spec 2 §2 "Toolbar"). */
export interface SearchFilters {
  tags: number[];
  users: number[];
  statusFilter: string[];
  whatsapps: number[];
}

export const NO_FILTERS: SearchFilters = { tags: [], users: [], statusFilter: [], whatsapps: [] };

export const FILTER_STATUSES = ['open', 'pending', 'closed', 'group'] as const;

export const hasFilters = (f: SearchFilters) => f.tags.length + f.users.length + f.statusFilter.length + f.whatsapps.length > 0;

interface Props {
  value: SearchFilters;
  onChange: (value: SearchFilters) => void;
  /** Users and connections are admin filters (spec 2 §6). */
  isAdmin: boolean;
}

function MultiFilter({ label, options, value, onChange }: { label: string; options: Option[]; value: number[]; onChange: (ids: number[]) => void }) {
  return (
    <Autocomplete
      multiple
      size="small"
      options={options}
      value={options.filter((o) => value.includes(o.id))}
      onChange={(_e, chosen) => onChange(chosen.map((o) => o.id))}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      limitTags={2}
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}

export function FilterPanel({ value, onChange, isAdmin }: Props) {
  const { t } = useTranslation();
  const tags = useTagOptions(true);
  const users = useUserOptions(isAdmin);
  const connections = useConnectionOptions(isAdmin);
  const statuses: Option[] = FILTER_STATUSES.map((s, i) => ({ id: i, name: t(`tickets.filters.statuses.${s}`) }));

  return (
    <Box role="group" aria-label={t('tickets.toolbar.filters')} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1, px: 1.5, pb: 1 }}>
      <MultiFilter label={t('tickets.filters.tags')} options={tags.data ?? []} value={value.tags} onChange={(ids) => onChange({ ...value, tags: ids })} />
      {isAdmin && (
        <MultiFilter label={t('tickets.filters.users')} options={users.data ?? []} value={value.users} onChange={(ids) => onChange({ ...value, users: ids })} />
      )}
      <MultiFilter
        label={t('tickets.filters.status')}
        options={statuses}
        value={value.statusFilter.map((s) => FILTER_STATUSES.indexOf(s as (typeof FILTER_STATUSES)[number]))}
        onChange={(ids) => onChange({ ...value, statusFilter: ids.map((i) => FILTER_STATUSES[i]).filter((s): s is (typeof FILTER_STATUSES)[number] => !!s) })}
      />
      {isAdmin && (
        <MultiFilter
          label={t('tickets.filters.whatsapps')}
          options={connections.data ?? []}
          value={value.whatsapps}
          onChange={(ids) => onChange({ ...value, whatsapps: ids })}
        />
      )}
      {hasFilters(value) && (
        <Box>
          <Button size="small" onClick={() => onChange(NO_FILTERS)}>
            {t('tickets.filters.clear')}
          </Button>
        </Box>
      )}
    </Box>
  );
}
