import { floatTo16Bit, MP3_KBPS } from './audio';

const FRAME = 1152;

/** Re-encodes a recording (any format the browser decodes) as mono MP3 at 128 kbit/s. */
export async function encodeMp3(recording: Blob): Promise<Blob> {
  const { Mp3Encoder } = await import('@breezystack/lamejs');
  const context = new AudioContext();
  try {
    const audio = await context.decodeAudioData(await recording.arrayBuffer());
    const samples = floatTo16Bit(audio.getChannelData(0));
    const encoder = new Mp3Encoder(1, audio.sampleRate, MP3_KBPS);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < samples.length; i += FRAME) {
      const out = encoder.encodeBuffer(samples.subarray(i, i + FRAME));
      if (out.length > 0) chunks.push(out);
    }
    const tail = encoder.flush();
    if (tail.length > 0) chunks.push(tail);
    return new Blob(chunks as BlobPart[], { type: 'audio/mpeg' });
  } finally {
    void context.close();
  }
}
