import { useState, type ChangeEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  CONTACT_IMPORT_EXTENSIONS,
  CONTACT_IMPORT_FIELDS,
  mappingFromHeader,
  mappingProblem,
  type ContactImportField,
  type ContactImportProgressPayload,
  type ContactImportResult,
} from '@balcao/contracts';
import { uploadContacts } from '../../api/contacts';
import { useCompanyEvent } from '../../api/liveEvents';
import { toast, toastError } from '../../components/toast';
import { dataRowNumbers, readSheet, type SheetPreview } from './sheetPreview';

/** Rows shown for selection; the rest are imported as selected (the count says how many there are). */
const PREVIEW_ROWS = 200;

type Mapping = (ContactImportField | null)[];

/** The first problem of the mapping and selection, as the spec words it (spec 2 §5), or null. */
function useImportProblem() {
  const { t } = useTranslation();
  return (mapping: Mapping, selected: number): string | null => {
    const problem = mappingProblem(mapping);
    if (problem?.key === 'mappedTwice') return t('contacts.import.errors.mappedTwice', { field: t(`contacts.import.fields.${problem.field}`) });
    if (problem) return t(`contacts.import.errors.${problem.key}`);
    return selected === 0 ? t('contacts.import.errors.noRows') : null;
  };
}

/**
 * /contacts/import (spec 2 §2, §4 "Contact import"): choose a spreadsheet, map its columns,
 * select rows, import with a progress bar, then the summary of created and ignored contacts.
 * The browser only previews the file; the server reads and imports it in one request.
 */
export function ContactsImportPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const problemOf = useImportProblem();
  const [sheet, setSheet] = useState<SheetPreview | null>(null);
  const [fileError, setFileError] = useState(false);
  const [mapping, setMapping] = useState<Mapping>([]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<ContactImportProgressPayload | null>(null);
  const [importing, setImporting] = useState(false);
  const [result, setResult] = useState<ContactImportResult | null>(null);
  useCompanyEvent<ContactImportProgressPayload>('contactImport', setProgress, importing);

  const dataRows = sheet ? dataRowNumbers(sheet.rows) : [];
  const header = sheet?.rows[0] ?? [];

  const choose = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setResult(null);
    setProblem(null);
    try {
      const read = await readSheet(file);
      setSheet(read);
      setFileError(false);
      setMapping(mappingFromHeader(read.rows[0] ?? []));
      setSelected(new Set(dataRowNumbers(read.rows)));
    } catch {
      setSheet(null);
      setFileError(true);
    }
  };

  const submit = async () => {
    if (!sheet) return;
    const found = problemOf(mapping, selected.size);
    setProblem(found);
    if (found) return;
    setImporting(true);
    setProgress({ action: 'progress', processed: 0, total: dataRows.length });
    try {
      const summary = await uploadContacts(sheet.upload.blob, sheet.upload.name, mapping, [...selected].sort((a, b) => a - b));
      setResult(summary);
      toast.success(t(summary.ignored > 0 ? 'contacts.import.partial' : 'contacts.import.success'));
      await queryClient.invalidateQueries({ queryKey: ['contacts', 'page'] });
    } catch (err) {
      toastError(err);
    } finally {
      setImporting(false);
    }
  };

  const toggleRow = (row: number) =>
    setSelected((before) => {
      const next = new Set(before);
      if (!next.delete(row)) next.add(row);
      return next;
    });

  const percent = progress && progress.total > 0 ? Math.round((progress.processed / progress.total) * 100) : 0;

  return (
    <Box data-testid="contacts-import-page" sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2, minHeight: 0, flex: 1, overflowY: 'auto' }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="h5" component="h1" color="primary" data-testid="page-title" sx={{ fontWeight: 600 }}>
          {t('contacts.import.title')}
        </Typography>
        <Button onClick={() => navigate('/contacts')}>{t('contacts.import.back')}</Button>
      </Stack>

      <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1, alignItems: 'flex-start' }}>
        <Button component="label" variant="contained" startIcon={<UploadFileIcon />} disabled={importing}>
          {result ? t('contacts.import.another') : t('contacts.import.choose')}
          <input hidden type="file" accept={CONTACT_IMPORT_EXTENSIONS.join(',')} onChange={(e) => void choose(e)} data-testid="contacts-import-file" />
        </Button>
        <Typography variant="body2" color="text.secondary">
          {sheet ? t('contacts.import.file', { name: sheet.fileName }) : t('contacts.import.accepted')}
        </Typography>
        {fileError && (
          <Alert severity="error" data-testid="contacts-import-invalid">
            {t('contacts.import.errors.invalidFile')}
          </Alert>
        )}
      </Paper>

      {sheet && !result && (
        <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography variant="subtitle1">{t('contacts.import.mapping')}</Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2 }}>
            {header.map((text, index) => (
              <TextField
                key={index}
                select
                size="small"
                sx={{ minWidth: 200 }}
                label={t('contacts.import.column', { index: index + 1, header: text })}
                value={mapping[index] ?? ''}
                onChange={(e) => setMapping((before) => before.map((f, i) => (i === index ? ((e.target.value || null) as ContactImportField | null) : f)))}
                slotProps={{ htmlInput: { 'data-testid': `contacts-import-map-${index}` } }}
              >
                <MenuItem value="">
                  <em>{t('contacts.import.fields.none')}</em>
                </MenuItem>
                {CONTACT_IMPORT_FIELDS.map((field) => (
                  <MenuItem key={field} value={field}>
                    {t(`contacts.import.fields.${field}`)}
                  </MenuItem>
                ))}
              </TextField>
            ))}
          </Stack>
          <Typography variant="body2" data-testid="contacts-import-selected">
            {t('contacts.import.selected', { count: selected.size, total: dataRows.length })}
            {dataRows.length > PREVIEW_ROWS && ` · ${t('contacts.import.preview', { shown: PREVIEW_ROWS, total: dataRows.length })}`}
          </Typography>
          <Box sx={{ maxHeight: 360, overflow: 'auto' }}>
            <Table size="small" stickyHeader>
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={selected.size === dataRows.length && dataRows.length > 0}
                      indeterminate={selected.size > 0 && selected.size < dataRows.length}
                      onChange={(e) => setSelected(new Set(e.target.checked ? dataRows : []))}
                      slotProps={{ input: { 'aria-label': t('contacts.import.selectAll') } }}
                    />
                  </TableCell>
                  {header.map((text, index) => (
                    <TableCell key={index}>{text}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {dataRows.slice(0, PREVIEW_ROWS).map((row) => (
                  <TableRow key={row} hover>
                    <TableCell padding="checkbox">
                      <Checkbox
                        checked={selected.has(row)}
                        onChange={() => toggleRow(row)}
                        slotProps={{ input: { 'aria-label': t('contacts.import.selectRow', { row }) } }}
                      />
                    </TableCell>
                    {header.map((_text, index) => (
                      <TableCell key={index}>{sheet.rows[row - 1]?.[index] ?? ''}</TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
          {problem && (
            <Alert severity="error" data-testid="contacts-import-problem">
              {problem}
            </Alert>
          )}
          {importing && (
            <Box>
              <LinearProgress variant="determinate" value={percent} aria-label={t('contacts.import.progress', { processed: progress?.processed ?? 0, total: progress?.total ?? 0 })} />
              <Typography variant="caption">{t('contacts.import.progress', { processed: progress?.processed ?? 0, total: progress?.total ?? 0 })}</Typography>
            </Box>
          )}
          <Box>
            <Button variant="contained" onClick={() => void submit()} disabled={importing} data-testid="contacts-import-submit">
              {t('contacts.import.submit')}
            </Button>
          </Box>
        </Paper>
      )}

      {result && (
        <Paper variant="outlined" sx={{ p: 2 }} data-testid="contacts-import-summary">
          <Typography variant="subtitle1" gutterBottom>
            {t('contacts.import.summary')}
          </Typography>
          <Typography data-testid="contacts-import-created">{t('contacts.import.created', { count: result.created })}</Typography>
          <Typography data-testid="contacts-import-updated">{t('contacts.import.updated', { count: result.updated })}</Typography>
          <Typography data-testid="contacts-import-ignored">{t('contacts.import.ignored', { count: result.ignored })}</Typography>
          <Box component="ul" sx={{ m: 0, pl: 3, color: 'text.secondary' }}>
            <li>{t('contacts.import.invalidNumber', { count: result.ignoredBy.invalidNumber })}</li>
            <li>{t('contacts.import.missingField', { count: result.ignoredBy.missingField })}</li>
            <li>{t('contacts.import.notSelected', { count: result.ignoredBy.notSelected })}</li>
          </Box>
        </Paper>
      )}
    </Box>
  );
}
