import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import TranslateIcon from '@mui/icons-material/Translate';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@balcao/contracts';
import { changeLanguage } from '../i18n';

export function LanguageSwitch({ color = 'inherit' }: { color?: 'inherit' | 'default' }) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t('languages.label')}>
        <IconButton
          color={color}
          aria-label={t('languages.label')}
          data-testid="language-switch"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <TranslateIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((lang) => (
          <MenuItem
            key={lang}
            selected={i18n.language === lang}
            data-testid={`language-${lang}`}
            lang={lang}
            onClick={() => {
              changeLanguage(lang);
              setAnchor(null);
            }}
          >
            {t(`languages.${lang}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
