import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import { useTranslation } from 'react-i18next';
import { useColorMode } from './colorMode';

export function ThemeToggle({ color = 'inherit' }: { color?: 'inherit' | 'default' }) {
  const { t } = useTranslation();
  const { mode, toggle } = useColorMode();
  const label = mode === 'light' ? t('theme.toDark') : t('theme.toLight');
  return (
    <Tooltip title={label}>
      <IconButton color={color} onClick={toggle} aria-label={label} data-testid="theme-toggle" data-mode={mode}>
        {mode === 'light' ? <DarkModeIcon /> : <LightModeIcon />}
      </IconButton>
    </Tooltip>
  );
}
