import { describe, expect, it } from 'vitest';
import { embedUrl, youtubeId } from './video';

describe('youtubeId', () => {
  it('takes a bare code as it is', () => {
    expect(youtubeId('dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
  });
  it('finds the id inside pasted addresses', () => {
    expect(youtubeId('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1')).toBe('dQw4w9WgXcQ');
    expect(youtubeId('https://youtu.be/dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
    expect(youtubeId('https://www.youtube.com/embed/dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
  });
  it('gives nothing for empty or unusable codes', () => {
    expect(youtubeId('')).toBeNull();
    expect(youtubeId(null)).toBeNull();
    expect(youtubeId('not a <code>')).toBeNull();
    expect(embedUrl(null)).toBeNull();
  });
});
