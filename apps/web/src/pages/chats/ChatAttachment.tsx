import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import type { ChatMessage } from '@balcao/contracts';
import { useChatMedia } from './queries';
import './texts';

/** A message's file in its bubble: an image previews (a broken one falls back to the link), anything else is a link that downloads it. */
export function ChatAttachment({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  const { objectUrl, error } = useChatMedia(message.mediaUrl);
  const [broken, setBroken] = useState(false);
  const name = message.mediaName ?? '';
  if (objectUrl && !broken && message.mediaType?.startsWith('image/')) {
    return (
      <Link href={objectUrl} target="_blank" rel="noopener" aria-label={t('chats.attach.open', { name })} sx={{ display: 'block', mb: 0.5 }}>
        <Box component="img" src={objectUrl} alt={name} onError={() => setBroken(true)} data-testid={`chat-media-${message.id}`} sx={{ display: 'block', maxWidth: '100%', maxHeight: 240, borderRadius: 1 }} />
      </Link>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 0.5 }} data-testid={`chat-media-${message.id}`}>
      <AttachFileIcon fontSize="small" aria-hidden />
      {objectUrl ? (
        <Link href={objectUrl} download={name} aria-label={t('chats.attach.open', { name })} sx={{ overflowWrap: 'anywhere' }}>
          {name}
        </Link>
      ) : (
        <span>{error ? t('chats.attach.unavailable', { name }) : name}</span>
      )}
    </Box>
  );
}
