import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { AA_CONTRAST, readableTextOn } from './contrast';
import { buildTheme } from './theme';

// The default light and dark primaries, Meta-ish blues, and colours a super user might pick.
const COLOURS = ['#065183', '#39ACE7', '#0000FF', '#1877F2', '#FFEB3B', '#00E676', '#777777', '#7F7F7F', '#E1306C', '#000000', '#FFFFFF', '#FF9800'];

describe('text on branding colours', () => {
  it('always reaches WCAG AA (4.5:1)', () => {
    for (const bg of COLOURS) expect(getContrastRatio(bg, readableTextOn(bg)), bg).toBeGreaterThanOrEqual(AA_CONTRAST);
  });

  it('puts dark text on the dark theme default #39ACE7, white on the light default #065183', () => {
    expect(readableTextOn('#39ACE7')).toBe('#000000');
    expect(readableTextOn('#065183')).toBe('#FFFFFF');
  });

  it('the theme derives the primary text (top bar, contained buttons) from the chosen colour in both modes', () => {
    for (const bg of COLOURS) {
      for (const mode of ['light', 'dark'] as const) {
        const { palette } = buildTheme(mode, bg);
        expect(getContrastRatio(palette.primary.main, palette.primary.contrastText), `${mode} ${bg}`).toBeGreaterThanOrEqual(AA_CONTRAST);
      }
    }
  });
});
