import Avatar from '@mui/material/Avatar';
import { useColorMode } from './colorMode';

/** The collapsed drawer's corner: the favicon when the brand has one, else the app name's first letter. */
export function LogoMark() {
  const { branding } = useColorMode();
  if (branding.favicon) return <img src={branding.favicon} alt={branding.appName} style={{ width: 32, height: 32 }} data-testid="logo-mark" />;
  return (
    <Avatar variant="rounded" sx={{ width: 32, height: 32, bgcolor: 'primary.main', color: 'primary.contrastText', fontWeight: 700 }} aria-label={branding.appName} data-testid="logo-mark">
      {branding.appName.charAt(0).toUpperCase()}
    </Avatar>
  );
}
