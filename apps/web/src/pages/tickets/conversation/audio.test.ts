import { describe, expect, it } from 'vitest';
import { floatTo16Bit, formatDuration, isAudioTooSmall, MIN_AUDIO_BYTES, nextSpeed, parseSpeed, recordingExtension, recordingFileName, recordingPlan } from './audio';

describe('audio rules', () => {
  it('discards recordings under 10000 bytes', () => {
    expect(MIN_AUDIO_BYTES).toBe(10_000);
    expect(isAudioTooSmall(9_999)).toBe(true);
    expect(isAudioTooSmall(10_000)).toBe(false);
  });
  it('names recordings mp3 for WhatsApp and m4a otherwise', () => {
    expect(recordingExtension('whatsapp')).toBe('mp3');
    expect(recordingExtension('facebook')).toBe('m4a');
    expect(recordingExtension('instagram')).toBe('m4a');
    expect(recordingFileName('mp3', new Date(1000))).toBe('audio-record-site-1000.mp3');
  });
  it('plans MP3 for WhatsApp, M4A elsewhere when the browser records MP4, else MP3', () => {
    expect(recordingPlan('whatsapp', true)).toMatchObject({ encodeMp3: true, ext: 'mp3', type: 'audio/mpeg' });
    expect(recordingPlan('facebook', true)).toMatchObject({ recordAs: 'audio/mp4', encodeMp3: false, ext: 'm4a' });
    expect(recordingPlan('instagram', false)).toMatchObject({ encodeMp3: true, ext: 'mp3' });
  });
  it('cycles playback speeds 0.5 → 1 → 1.5 → 2 → 0.5', () => {
    expect([0.5, 1, 1.5, 2].map(nextSpeed)).toEqual([1, 1.5, 2, 0.5]);
  });
  it('reads a stored speed, falling back to 1', () => {
    expect(parseSpeed('1.5')).toBe(1.5);
    expect(parseSpeed('3')).toBe(1);
    expect(parseSpeed(null)).toBe(1);
  });
  it('formats mm:ss', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(75.9)).toBe('01:15');
    expect(formatDuration(Number.NaN)).toBe('00:00');
  });
  it('converts float samples to clamped 16-bit PCM', () => {
    expect(Array.from(floatTo16Bit(new Float32Array([0, 1, -1, 2, -2])))).toEqual([0, 32767, -32768, 32767, -32768]);
  });
});
