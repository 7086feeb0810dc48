import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import { SEARCH_DEBOUNCE_MS, type Contact } from '@balcao/contracts';
import { searchContacts, type ContactOption } from './conversationQueries';
import { ListState } from '../../../components/ListStates';
import { useDebounced } from './search';

interface Props {
  /** Ids picked so far (one for a single choice). */
  selected: ReadonlyMap<number, ContactOption>;
  onToggle: (c: ContactOption) => void;
  multiple: boolean;
  /** Only contacts of this channel (a message is forwarded on the channel it came from). */
  channel: Contact['channel'] | null;
}

/** A searchable contact list (500 ms debounce) for the forward and contact-card dialogs. */
export function ContactPicker({ selected, onToggle, multiple, channel }: Props) {
  const { t } = useTranslation();
  const [term, setTerm] = useState('');
  const search = useDebounced(term.trim(), SEARCH_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: ['conversation', 'contactSearch', search, channel],
    queryFn: ({ signal }) => searchContacts(search, channel, signal),
  });
  // A server that ignores the channel filter still shows only what can be used.
  const contacts = (query.data ?? []).filter((c) => !c.isGroup && (!channel || !c.channel || c.channel === channel));
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <TextField
        size="small"
        autoFocus
        fullWidth
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        placeholder={t('conversation.contactSearch.placeholder')}
        slotProps={{
          htmlInput: { 'aria-label': t('conversation.contactSearch.placeholder') },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <Box sx={{ height: 320, overflowY: 'auto' }}>
        <ListState loading={query.isLoading} error={query.isError} empty={!query.isLoading && !query.isError && contacts.length === 0} onRetry={() => void query.refetch()} />
        <List dense disablePadding>
          {contacts.map((c) => {
            const checked = selected.has(c.id);
            return (
              <ListItemButton key={c.id} onClick={() => onToggle(c)} selected={!multiple && checked} role={multiple ? 'checkbox' : 'option'} aria-checked={checked}>
                {multiple && <Checkbox edge="start" checked={checked} tabIndex={-1} disableRipple size="small" />}
                <ListItemAvatar sx={{ minWidth: 48 }}>
                  <Avatar src={c.urlPicture ?? undefined} sx={{ width: 32, height: 32 }}>
                    {c.name.charAt(0).toUpperCase()}
                  </Avatar>
                </ListItemAvatar>
                <ListItemText primary={c.name} secondary={c.number} />
              </ListItemButton>
            );
          })}
        </List>
      </Box>
    </Box>
  );
}
