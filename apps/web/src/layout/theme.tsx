import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { useTranslation } from 'react-i18next';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { readStorage, STORAGE_KEYS, writeStorage } from '../api/storage';
import { readableTextOn } from './contrast';
import { formatTabTitle } from './tabTitle';
import { useBranding } from '../api/branding';
import { ColorModeContext, type ColorMode } from '../components/colorMode';

function systemMode(): ColorMode {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The stored choice, else the system preference (spec 1 §9). */
export function initialColorMode(): ColorMode {
  const stored = readStorage(STORAGE_KEYS.theme);
  return stored === 'light' || stored === 'dark' ? stored : systemMode();
}

/**
 * The MUI theme for a mode and primary colour; text on the primary is derived from it (WCAG AA).
 * Every spinner is a named progress bar (`loadingLabel`), so none reaches a screen reader unnamed.
 */
export function buildTheme(mode: ColorMode, primary: string, loadingLabel = 'Carregando...') {
  return createTheme({
    palette: {
      mode,
      primary: { main: primary, contrastText: readableTextOn(primary) },
      ...(mode === 'light' ? { background: { default: '#f4f6f8' } } : {}),
    },
    shape: { borderRadius: 8 },
    components: { MuiCircularProgress: { defaultProps: { 'aria-label': loadingLabel } } },
  });
}

export function AppThemeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ColorMode>(initialColorMode);
  const [unread, setUnread] = useState(0);
  const branding = useBranding();
  const { t } = useTranslation();
  const loadingLabel = t('common.loading');

  const toggle = useCallback(() => {
    setMode((m) => {
      const next = m === 'light' ? 'dark' : 'light';
      writeStorage(STORAGE_KEYS.theme, next);
      return next;
    });
  }, []);

  const theme = useMemo(
    () => buildTheme(mode, mode === 'light' ? branding.primaryLight : branding.primaryDark, loadingLabel),
    [mode, branding.primaryLight, branding.primaryDark, loadingLabel],
  );

  useEffect(() => {
    document.title = formatTabTitle(unread, branding.appName);
  }, [unread, branding.appName]);

  useEffect(() => {
    if (!branding.favicon) return;
    const link = document.querySelector<HTMLLinkElement>('link#app-favicon') ?? document.createElement('link');
    link.id = 'app-favicon';
    link.rel = 'icon';
    link.href = branding.favicon;
    if (!link.parentNode) document.head.appendChild(link);
  }, [branding.favicon]);

  useEffect(() => {
    document.documentElement.dataset.theme = mode;
  }, [mode]);

  const value = useMemo(() => ({ mode, toggle, branding, setUnread }), [mode, toggle, branding]);
  return (
    <ColorModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ColorModeContext.Provider>
  );
}
