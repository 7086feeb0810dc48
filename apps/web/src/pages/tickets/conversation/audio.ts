import type { Ticket } from '@balcao/contracts';

/** Spec 2 §5: recordings under 10000 bytes are discarded (a slip of the finger, not a message). */
export const MIN_AUDIO_BYTES = 10_000;
/** Spec 2 §9: audio is encoded as MP3 at 128 kbit/s. */
export const MP3_KBPS = 128;

export function isAudioTooSmall(size: number): boolean {
  return size < MIN_AUDIO_BYTES;
}

/** Spec 2 §9: recording file names are mp3 for WhatsApp, m4a otherwise. */
export function recordingExtension(channel: Ticket['channel']): 'mp3' | 'm4a' {
  return channel === 'whatsapp' ? 'mp3' : 'm4a';
}

export function recordingFileName(ext: 'mp3' | 'm4a', now: Date): string {
  return `audio-record-site-${now.getTime()}.${ext}`;
}

/** mm:ss of a recording or playback position. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Spec 2 §9: playback speeds cycle 0.5, 1, 1.5, 2 (stored locally). */
export const PLAYBACK_SPEEDS = [0.5, 1, 1.5, 2] as const;
export const PLAYBACK_SPEED_KEY = 'audioMessageRate';

export function nextSpeed(current: number): number {
  const i = PLAYBACK_SPEEDS.findIndex((s) => s === current);
  return PLAYBACK_SPEEDS[(i + 1) % PLAYBACK_SPEEDS.length] ?? 1;
}

export function parseSpeed(stored: string | null): number {
  const n = Number(stored);
  return (PLAYBACK_SPEEDS as readonly number[]).includes(n) ? n : 1;
}

/** Float PCM samples [-1, 1] to 16-bit integers, as the MP3 encoder reads them. */
export function floatTo16Bit(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

/**
 * How a recording is made for a channel: WhatsApp gets MP3 (encoded here);
 * other channels get M4A when the browser records MP4 audio, else MP3 too
 * (a WebM recording would be refused by Meta).
 */
export function recordingPlan(channel: Ticket['channel'], mp4Supported: boolean): { recordAs: string | null; encodeMp3: boolean; ext: 'mp3' | 'm4a'; type: string } {
  if (channel !== 'whatsapp' && mp4Supported) return { recordAs: 'audio/mp4', encodeMp3: false, ext: 'm4a', type: 'audio/mp4' };
  return { recordAs: null, encodeMp3: true, ext: 'mp3', type: 'audio/mpeg' };
}
