import { useState } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CallMissedIcon from '@mui/icons-material/CallMissed';
import CloseIcon from '@mui/icons-material/Close';
import DownloadIcon from '@mui/icons-material/Download';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import PlaceIcon from '@mui/icons-material/Place';
import { useTranslation } from 'react-i18next';
import type { Message } from '@balcao/contracts';
import { AudioPlayer } from './AudioPlayer';
import { MessageText } from './MessageText';
import { fileNameOf, locationLink, parseVCard } from './messageRules';

/** A caption worth showing: not empty and not just the file's own name. */
function caption(m: Message): string | null {
  const body = m.body.trim();
  if (!body || body === fileNameOf(m.mediaUrl)) return null;
  return body;
}

function Caption({ m }: { m: Message }) {
  const text = caption(m);
  return text ? (
    <Box sx={{ mt: 0.5 }}>
      <MessageText body={text} />
    </Box>
  ) : null;
}

function ImageMedia({ m, sticker }: { m: Message; sticker: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const src = m.mediaUrl ?? '';
  return (
    <>
      <Box
        component="img"
        src={src}
        alt={caption(m) ?? t('conversation.media.image')}
        loading="lazy"
        onClick={() => setOpen(true)}
        sx={{ display: 'block', cursor: 'zoom-in', borderRadius: 1, maxWidth: sticker ? 140 : 280, maxHeight: sticker ? 140 : 280, width: sticker ? undefined : '100%', objectFit: 'cover' }}
      />
      {!sticker && <Caption m={m} />}
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="lg">
        <IconButton aria-label={t('conversation.actions.close')} onClick={() => setOpen(false)} sx={{ position: 'absolute', right: 4, top: 4, bgcolor: 'background.paper' }}>
          <CloseIcon />
        </IconButton>
        <Box component="img" src={src} alt="" sx={{ display: 'block', maxWidth: '90vw', maxHeight: '90vh' }} />
      </Dialog>
    </>
  );
}

function DocumentMedia({ m }: { m: Message }) {
  const { t } = useTranslation();
  const name = fileNameOf(m.mediaUrl) || t('conversation.media.document');
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1, borderRadius: 1, bgcolor: 'action.hover', minWidth: 200 }}>
        <InsertDriveFileIcon color="action" />
        <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={name}>
          {name}
        </Typography>
        <IconButton size="small" component="a" href={m.mediaUrl ?? '#'} target="_blank" rel="noopener noreferrer" download={name} aria-label={t('conversation.media.download')}>
          <DownloadIcon fontSize="small" />
        </IconButton>
      </Box>
      <Caption m={m} />
    </>
  );
}

function LocationMedia({ m }: { m: Message }) {
  const { t } = useTranslation();
  const link = locationLink(m.body);
  const thumb = m.body.split('|').find((p) => p.startsWith('data:image'));
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
      {thumb && <Box component="img" src={thumb} alt="" sx={{ maxWidth: 240, borderRadius: 1 }} />}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <PlaceIcon color="error" fontSize="small" />
        <Typography variant="body2">{t('conversation.media.location')}</Typography>
      </Box>
      {link && (
        <Button size="small" variant="outlined" href={link} target="_blank" rel="noopener noreferrer">
          {t('conversation.media.openMap')}
        </Button>
      )}
    </Box>
  );
}

function ContactMedia({ m }: { m: Message }) {
  const { t } = useTranslation();
  const card = parseVCard(m.body);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 200 }} data-testid="contact-card">
      <Avatar>{(card.name || '?').charAt(0).toUpperCase()}</Avatar>
      <Box>
        <Typography variant="body2" fontWeight={600}>
          {card.name || t('conversation.media.contact')}
        </Typography>
        {card.numbers.map((n) => (
          <Typography key={n} variant="caption" component="div" color="text.secondary">
            {n}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

function CallLog({ m }: { m: Message }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      <CallMissedIcon color="error" fontSize="small" />
      <Typography variant="body2">{m.body.trim() || t('conversation.media.missedCall')}</Typography>
    </Box>
  );
}

/** The content of a message bubble by media type (spec 2 §3). */
export function MediaContent({ m }: { m: Message }) {
  switch (m.mediaType) {
    case 'image':
      return m.mediaUrl ? <ImageMedia m={m} sticker={false} /> : <MessageText body={m.body} />;
    case 'sticker':
      return m.mediaUrl ? <ImageMedia m={m} sticker /> : <MessageText body={m.body} />;
    case 'audio':
      return m.mediaUrl ? <AudioPlayer src={m.mediaUrl} /> : <MessageText body={m.body} />;
    case 'video':
      return m.mediaUrl ? (
        <>
          <Box component="video" src={m.mediaUrl} controls preload="metadata" sx={{ display: 'block', maxWidth: 280, maxHeight: 280, borderRadius: 1 }} />
          <Caption m={m} />
        </>
      ) : (
        <MessageText body={m.body} />
      );
    case 'application':
      return <DocumentMedia m={m} />;
    case 'locationMessage':
      return <LocationMedia m={m} />;
    case 'contactMessage':
      return <ContactMedia m={m} />;
    case 'call_log':
      return <CallLog m={m} />;
    default:
      return <MessageText body={m.body} />;
  }
}
