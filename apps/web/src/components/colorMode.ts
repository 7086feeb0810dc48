import { createContext, useContext } from 'react';
import type { Branding } from '../api/branding';

export type ColorMode = 'light' | 'dark';

/** What the theme provider (layout/theme.tsx) shares with every widget and screen. */
export interface ColorModeValue {
  mode: ColorMode;
  toggle: () => void;
  branding: Branding;
  /** Unread tickets for the tab title; the ticket issue feeds it. */
  setUnread: (n: number) => void;
}

export const ColorModeContext = createContext<ColorModeValue | null>(null);

export function useColorMode(): ColorModeValue {
  const ctx = useContext(ColorModeContext);
  if (!ctx) throw new Error('useColorMode outside AppThemeProvider');
  return ctx;
}
