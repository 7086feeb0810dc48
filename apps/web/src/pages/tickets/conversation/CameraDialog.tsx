import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';

interface Props {
  onClose: () => void;
  /** The captured photo, as a JPEG file. */
  onCapture: (file: File) => void;
}

/** Spec 2 §2 "camera capture": the device camera's live picture; Capturar takes a JPEG still and hands it to the attachment preview. */
export function CameraDialog({ onClose, onCapture }: Props) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live: MediaStream | null = null;
    let cancelled = false;
    navigator.mediaDevices
      .getUserMedia({ video: true })
      .then((s) => {
        if (cancelled) return s.getTracks().forEach((track) => track.stop());
        live = s;
        setStream(s);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      live?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  useEffect(() => {
    if (video.current && stream) video.current.srcObject = stream;
  }, [stream]);

  const capture = () => {
    const el = video.current;
    if (!el || !el.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = el.videoWidth;
    canvas.height = el.videoHeight;
    canvas.getContext('2d')?.drawImage(el, 0, 0);
    canvas.toBlob(
      (blob) => {
        if (!blob) return;
        onCapture(new File([blob], `foto-${new Date().toISOString().replace(/[:.]/g, '-')}.jpg`, { type: 'image/jpeg' }));
      },
      'image/jpeg',
      0.9,
    );
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="camera-title" data-testid="camera-dialog">
      <DialogTitle id="camera-title">{t('conversation.camera.title')}</DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', justifyContent: 'center', minHeight: 240, alignItems: 'center' }}>
        {failed ? (
          <Typography color="error">{t('conversation.camera.denied')}</Typography>
        ) : stream ? (
          <Box component="video" ref={video} autoPlay muted playsInline aria-label={t('conversation.camera.preview')} sx={{ width: '100%', borderRadius: 1, bgcolor: 'black' }} />
        ) : (
          <CircularProgress aria-label={t('conversation.camera.starting')} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('conversation.actions.cancel')}</Button>
        <Button variant="contained" onClick={capture} disabled={!stream} data-testid="camera-capture">
          {t('conversation.camera.capture')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
