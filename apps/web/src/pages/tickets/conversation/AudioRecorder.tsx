import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import MicIcon from '@mui/icons-material/Mic';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '@balcao/contracts';
import { toast } from '../../../components/toast';
import { formatDuration, isAudioTooSmall, recordingFileName, recordingPlan } from './audio';
import { encodeMp3 } from './mp3';

interface Props {
  channel: Ticket['channel'];
  disabled: boolean;
  /** Called with the finished file; the recorder shows progress until it settles. */
  onRecorded: (file: Blob, name: string) => Promise<unknown>;
  onRecordingChange: (recording: boolean) => void;
}

type State = 'idle' | 'recording' | 'sending';

/** Spec 2 §4: idle → recording with a timer → sent or cancelled. */
export function AudioRecorder({ channel, disabled, onRecorded, onRecordingChange }: Props) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>('idle');
  const [seconds, setSeconds] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const keep = useRef(false);

  useEffect(() => onRecordingChange(state !== 'idle'), [state, onRecordingChange]);
  useEffect(() => {
    if (state !== 'recording') return;
    const started = Date.now();
    const id = window.setInterval(() => setSeconds((Date.now() - started) / 1000), 250);
    return () => window.clearInterval(id);
  }, [state]);
  // Leaving the conversation mid-recording releases the microphone.
  useEffect(() => () => stopTracks(), []);

  function stopTracks() {
    recorder.current?.stream.getTracks().forEach((tr) => tr.stop());
  }

  const plan = recordingPlan(channel, typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported('audio/mp4'));

  async function start() {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const rec = plan.recordAs ? new MediaRecorder(stream, { mimeType: plan.recordAs }) : new MediaRecorder(stream);
      chunks.current = [];
      rec.ondataavailable = (e) => {
        if (e.data.size > 0) chunks.current.push(e.data);
      };
      rec.onstop = () => void finish(rec.mimeType);
      recorder.current = rec;
      keep.current = false;
      rec.start();
      setSeconds(0);
      setState('recording');
    } catch (err) {
      console.error(err);
      toast.error(t('conversation.audio.micDenied'));
    }
  }

  async function finish(mimeType: string) {
    stopTracks();
    if (!keep.current) {
      setState('idle');
      return;
    }
    setState('sending');
    try {
      const raw = new Blob(chunks.current, { type: mimeType });
      const file = plan.encodeMp3 ? await encodeMp3(raw) : raw;
      if (isAudioTooSmall(file.size)) {
        toast.info(t('conversation.audio.tooShort'));
        return;
      }
      await onRecorded(new Blob([file], { type: plan.type }), recordingFileName(plan.ext, new Date()));
    } catch (err) {
      console.error(err);
      toast.error(t('conversation.audio.failed'));
    } finally {
      setState('idle');
    }
  }

  const stop = (send: boolean) => {
    keep.current = send;
    recorder.current?.stop();
  };

  if (state === 'idle') {
    return (
      <Tooltip title={t('conversation.audio.record')}>
        <span>
          <IconButton onClick={() => void start()} disabled={disabled} aria-label={t('conversation.audio.record')} color="primary">
            <MicIcon />
          </IconButton>
        </span>
      </Tooltip>
    );
  }
  if (state === 'sending') return <CircularProgress size={24} sx={{ m: 1 }} aria-label={t('conversation.audio.sending')} />;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }} data-testid="audio-recording">
      <IconButton onClick={() => stop(false)} aria-label={t('conversation.audio.cancel')} color="error">
        <CancelIcon />
      </IconButton>
      <FiberManualRecordIcon color="error" sx={{ fontSize: 14, animation: 'pulse 1s infinite', '@keyframes pulse': { '50%': { opacity: 0.3 } } }} />
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', minWidth: 44 }} aria-live="off">
        {formatDuration(seconds)}
      </Typography>
      <IconButton onClick={() => stop(true)} aria-label={t('conversation.audio.send')} color="success">
        <CheckCircleIcon />
      </IconButton>
    </Box>
  );
}
