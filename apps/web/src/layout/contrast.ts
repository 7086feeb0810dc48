import { getContrastRatio } from '@mui/material/styles';

/** WCAG AA for normal text. */
export const AA_CONTRAST = 4.5;

/**
 * The text colour for a background (the top bar, primary buttons): white or black, whichever
 * reads better. Branding colours are picked freely, so the text is derived, never fixed to white.
 */
export function readableTextOn(background: string): '#FFFFFF' | '#000000' {
  // One of the two always reaches 4.5:1 (the worst mid-grey still gets about 4.6 with black).
  return getContrastRatio(background, '#FFFFFF') >= getContrastRatio(background, '#000000') ? '#FFFFFF' : '#000000';
}
