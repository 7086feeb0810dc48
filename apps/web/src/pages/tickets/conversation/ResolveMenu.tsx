import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { useTranslation } from 'react-i18next';

interface Props {
  compact: boolean;
  disabled: boolean;
  /** False when "with farewell" would send nothing: the option is disabled and says why. */
  farewell: boolean;
  onResolve: (farewell: boolean) => void;
}

/** Resolve with or without the farewell message (spec 2 §4). */
export function ResolveMenu({ compact, disabled, farewell, onResolve }: Props) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const label = t('conversation.header.resolve');
  const pick = (farewell: boolean) => {
    setAnchor(null);
    onResolve(farewell);
  };
  return (
    <>
      {compact ? (
        <Tooltip title={label}>
          <span>
            <IconButton color="success" aria-label={label} aria-haspopup="menu" disabled={disabled} onClick={(e) => setAnchor(e.currentTarget)}>
              <CheckCircleIcon />
            </IconButton>
          </span>
        </Tooltip>
      ) : (
        <Button
          variant="contained"
          color="success"
          size="small"
          endIcon={<ArrowDropDownIcon />}
          aria-haspopup="menu"
          disabled={disabled}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          {label}
        </Button>
      )}
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => pick(true)} disabled={!farewell}>
          <ListItemText
            primary={t('conversation.header.resolveWithFarewell')}
            secondary={farewell ? undefined : t('conversation.header.noFarewell')}
            slotProps={{ secondary: { sx: { whiteSpace: 'normal', maxWidth: 280 } } }}
          />
        </MenuItem>
        <MenuItem onClick={() => pick(false)}>{t('conversation.header.resolveWithoutFarewell')}</MenuItem>
      </Menu>
    </>
  );
}
