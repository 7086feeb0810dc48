import Typography from '@mui/material/Typography';
import { useColorMode } from './colorMode';

/** The brand logo for the current mode, else the app name as text. */
export function Logo({ maxHeight = 48, color = 'primary' }: { maxHeight?: number; color?: string }) {
  const { mode, branding } = useColorMode();
  const src = mode === 'dark' ? (branding.logoDark ?? branding.logoLight) : (branding.logoLight ?? branding.logoDark);
  if (src) return <img src={src} alt={branding.appName} style={{ maxHeight, maxWidth: '100%' }} />;
  return (
    <Typography variant="h6" component="span" color={color} noWrap sx={{ fontWeight: 700 }} data-testid="app-name">
      {branding.appName}
    </Typography>
  );
}
