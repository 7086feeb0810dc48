import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditEntry } from '@balcao/contracts';
import { useAuditLog, type AuditFilters } from '../../api/audit';
import { useUser } from '../../api/session';
import { ListTable } from '../../components/ListTable';
import { TwoFactorPolicySwitch } from './TwoFactorPolicySwitch';

const shown = (value: unknown): string => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** "field: before → after", one line per changed field. */
function ChangesCell({ changes }: { changes: AuditEntry['changes'] }) {
  return (
    <Box component="ul" sx={{ m: 0, pl: 2, fontSize: 13, wordBreak: 'break-word' }}>
      {Object.entries(changes).map(([field, { before, after }]) => (
        <li key={field}>
          <strong>{field}</strong>: {shown(before)}
          {before !== undefined && after !== undefined ? ' → ' : ''}
          {shown(after)}
        </li>
      ))}
    </Box>
  );
}

/** /settings?tab=audit: the company's two-factor rule, then the administrative changes of the company (every company for the super user), filtered, newest first. */
export function AuditLogTab() {
  const { t } = useTranslation();
  const user = useUser();
  const [filters, setFilters] = useState<AuditFilters>({});
  const query = useAuditLog(filters);
  const entries = query.data?.pages.flatMap((p) => p.entries) ?? [];
  const set = (key: keyof AuditFilters) => (value: string) => setFilters((f) => ({ ...f, [key]: value || undefined }));

  const select = (key: 'entity' | 'action', values: readonly string[]) => (
    <TextField
      select
      size="small"
      label={t(`settings.audit.filters.${key}`)}
      value={filters[key] ?? ''}
      onChange={(e) => set(key)(e.target.value)}
      sx={{ minWidth: 180 }}
      slotProps={{ htmlInput: { 'data-testid': `audit-filter-${key}` } }}
    >
      <MenuItem value="">{t('settings.audit.filters.all')}</MenuItem>
      {values.map((v) => (
        <MenuItem key={v} value={v}>
          {t(`settings.audit.${key === 'entity' ? 'entities' : 'actions'}.${v}`)}
        </MenuItem>
      ))}
    </TextField>
  );
  const day = (key: 'from' | 'to') => (
    <TextField
      type="date"
      size="small"
      label={t(`settings.audit.filters.${key}`)}
      value={filters[key] ?? ''}
      onChange={(e) => set(key)(e.target.value)}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );

  const columns = [
    { label: t('settings.audit.columns.when'), width: 170 },
    ...(user.super ? [{ label: t('settings.audit.columns.company'), width: 90 }] : []),
    { label: t('settings.audit.columns.who') },
    { label: t('settings.audit.columns.what') },
    { label: t('settings.audit.columns.changes') },
    { label: t('settings.audit.columns.from') },
  ];

  return (
    <Stack spacing={2} data-testid="audit-log">
      <TwoFactorPolicySwitch />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ flexWrap: 'wrap' }}>
        {select('entity', AUDIT_ENTITIES)}
        {select('action', AUDIT_ACTIONS)}
        {day('from')}
        {day('to')}
      </Stack>
      <Box sx={{ overflowX: 'auto' }}>
        <ListTable
          testId="audit-table"
          columns={columns}
          state={{
            loading: query.isPending,
            error: query.isError && entries.length === 0,
            empty: !query.isPending && !query.isError && entries.length === 0,
            onRetry: () => void query.refetch(),
            loadingMore: query.isFetchingNextPage,
            emptyText: t('settings.audit.empty'),
          }}
        >
          {entries.map((e) => (
            <TableRow key={e.id} data-testid="audit-row">
              <TableCell>{new Date(e.createdAt).toLocaleString()}</TableCell>
              {user.super && <TableCell>{e.companyId}</TableCell>}
              <TableCell>{e.userName ?? t('settings.audit.system')}</TableCell>
              <TableCell>
                {t(`settings.audit.actions.${e.action}`)} · {t(`settings.audit.entities.${e.entity}`)}
                {e.entityId ? ` #${e.entityId}` : ''}
              </TableCell>
              <TableCell>
                <ChangesCell changes={e.changes} />
              </TableCell>
              <TableCell>{e.ip ?? ''}</TableCell>
            </TableRow>
          ))}
        </ListTable>
      </Box>
      {query.hasNextPage && (
        <Button sx={{ alignSelf: 'center' }} disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} data-testid="audit-more">
          {t('settings.audit.more')}
        </Button>
      )}
    </Stack>
  );
}
