import { useEffect, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import { useTranslation } from 'react-i18next';

export interface CaptionedFile {
  file: File;
  name: string;
  caption: string;
}

export interface PendingFile {
  file: File;
  /** A caption to start from (a quick reply's text), else empty. */
  caption: string;
}

interface Props {
  files: PendingFile[];
  onClose: () => void;
  onSend: (files: CaptionedFile[]) => Promise<unknown>;
}

function Preview({ file }: { file: File }) {
  const url = useMemo(() => (file.type.startsWith('image/') || file.type.startsWith('video/') ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  if (url && file.type.startsWith('image/')) return <Box component="img" src={url} alt={file.name} sx={{ width: 96, height: 96, objectFit: 'cover', borderRadius: 1 }} />;
  if (url) return <Box component="video" src={url} sx={{ width: 96, height: 96, objectFit: 'cover', borderRadius: 1 }} />;
  return (
    <Box sx={{ width: 96, height: 96, display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'action.hover', borderRadius: 1 }}>
      <InsertDriveFileIcon fontSize="large" color="action" />
    </Box>
  );
}

/** Spec 2 §2: attachments are previewed before sending, each with its own caption. */
export function AttachmentPreviewDialog({ files, onClose, onSend }: Props) {
  const { t } = useTranslation();
  const [items, setItems] = useState<CaptionedFile[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => setItems(files.map(({ file, caption }) => ({ file, name: file.name, caption }))), [files]);
  const send = async () => {
    setBusy(true);
    try {
      await onSend(items);
      onClose();
    } catch {
      // The caller reported it; the dialog stays so nothing typed is lost.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={files.length > 0} onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth aria-labelledby="attachment-preview-title">
      <DialogTitle id="attachment-preview-title">{t('conversation.attachments.title')}</DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {items.map((it, i) => (
          <Box key={`${it.name}-${i}`} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
            <Preview file={it.file} />
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="body2" noWrap title={it.name} sx={{ mb: 1 }}>
                {it.name}
              </Typography>
              <TextField
                size="small"
                fullWidth
                multiline
                maxRows={4}
                label={t('conversation.attachments.caption')}
                value={it.caption}
                onChange={(e) => setItems((list) => list.map((x, j) => (j === i ? { ...x, caption: e.target.value } : x)))}
              />
            </Box>
            <IconButton
              aria-label={t('conversation.attachments.remove', { name: it.name })}
              onClick={() => setItems((list) => {
                const next = list.filter((_, j) => j !== i);
                if (next.length === 0) onClose();
                return next;
              })}
              disabled={busy}
            >
              <DeleteIcon />
            </IconButton>
          </Box>
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('conversation.actions.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void send()} disabled={busy || items.length === 0} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}>
          {t('conversation.actions.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
