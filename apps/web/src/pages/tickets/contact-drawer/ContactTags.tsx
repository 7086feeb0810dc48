import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSyncContactTags, useTagsList, useTagsLive } from '../../../api/tags';
import { toast, toastError } from '../../../components/toast';
import {
  isNewTagOption,
  newTagOption,
  resolveTagSelection,
  sameTagSet,
  tagTextColor,
  type TagChoice,
  type TagRef,
} from './tagSelection';

const filter = createFilterOptions<TagChoice>({ stringify: (o) => (typeof o === 'string' ? o : isNewTagOption(o) ? o.newName : o.name) });

/**
 * The contact's tags (spec 2 §2, §5): pick known tags or type new names
 * (free solo); every change syncs the whole list through `/tags/sync`.
 */
export function ContactTags({ contactId, tags }: { contactId: number; tags: TagRef[] }) {
  const { t } = useTranslation();
  const list = useTagsList(0);
  useTagsLive();
  const sync = useSyncContactTags();
  const known = useMemo<TagRef[]>(() => (list.data ?? []).map(({ id, name, color }) => ({ id, name, color })), [list.data]);

  const label = (o: TagChoice) => (typeof o === 'string' ? o : isNewTagOption(o) ? t('contactDrawer.tags.create', { name: o.newName }) : o.name);

  const change = (choices: TagChoice[]) => {
    const selection = resolveTagSelection(choices, known);
    if (!selection.ok) {
      toast.error(t('contactDrawer.toasts.tagTooShort'));
      return;
    }
    if (sameTagSet(selection.tags, tags)) return;
    sync.mutate(
      { contactId, tags: selection.tags },
      { onSuccess: () => toast.success(t('contactDrawer.toasts.tagsSaved')), onError: toastError },
    );
  };

  return (
    <Box data-testid="contact-tags">
      <Autocomplete<TagChoice, true, true, true>
        multiple
        freeSolo
        disableClearable
        size="small"
        options={known}
        value={tags}
        loading={list.isPending}
        disabled={sync.isPending}
        loadingText={t('contactDrawer.tags.loading')}
        noOptionsText={t('contactDrawer.tags.noOptions')}
        getOptionLabel={label}
        isOptionEqualToValue={(o, v) => typeof o === 'object' && typeof v === 'object' && !isNewTagOption(o) && !isNewTagOption(v) && o.id === v.id}
        filterSelectedOptions
        filterOptions={(options, state) => {
          const filtered = filter(options, state);
          const create = newTagOption(state.inputValue, known);
          return create ? [...filtered, create] : filtered;
        }}
        onChange={(_e, value) => change(value)}
        renderOption={({ key, ...props }, option) => {
          const tag = typeof option === 'object' && !isNewTagOption(option) ? option : null;
          return (
            <li key={key} {...props}>
              {tag && <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: tag.color, mr: 1, flexShrink: 0 }} />}
              {label(option)}
            </li>
          );
        }}
        renderValue={(value, getItemProps) =>
          value.map((option, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            const tag = typeof option === 'object' && !isNewTagOption(option) ? option : null;
            return (
              <Chip
                key={key}
                {...itemProps}
                size="small"
                label={label(option)}
                sx={tag ? { bgcolor: tag.color, color: tagTextColor(tag.color), '& .MuiChip-deleteIcon': { color: tagTextColor(tag.color), opacity: 0.7 } } : undefined}
              />
            );
          })
        }
        renderInput={({ InputProps, inputProps, InputLabelProps, ...params }) => (
          <TextField
            {...params}
            label={t('contactDrawer.tags.field')}
            placeholder={t('contactDrawer.tags.placeholder')}
            slotProps={{
              inputLabel: InputLabelProps,
              htmlInput: { ...inputProps, 'aria-label': t('contactDrawer.tags.field'), 'data-testid': 'contact-tags-input' },
              input: {
                ...InputProps,
                endAdornment: (
                  <>
                    {sync.isPending && <CircularProgress size={16} />}
                    {InputProps.endAdornment}
                  </>
                ),
              },
            }}
          />
        )}
      />
      {list.isError && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }} data-testid="contact-tags-error">
          <Typography variant="caption" color="error">
            {t('contactDrawer.tags.error')}
          </Typography>
          <Button size="small" onClick={() => void list.refetch()}>
            {t('contactDrawer.tags.retry')}
          </Button>
        </Box>
      )}
    </Box>
  );
}
