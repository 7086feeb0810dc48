import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import DrawIcon from '@mui/icons-material/Draw';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import { useTranslation } from 'react-i18next';

interface ToggleProps {
  on: boolean;
  onChange: (next: boolean) => void;
  disabled?: boolean;
}

/** Sign messages with the attendant's name (only offered when the company enables sendSignMessage). */
export function SignatureToggle({ on, onChange, disabled }: ToggleProps) {
  const { t } = useTranslation();
  const label = t('conversation.composer.signature');
  return (
    <Tooltip title={label}>
      <span>
        <IconButton aria-label={label} aria-pressed={on} onClick={() => onChange(!on)} color={on ? 'primary' : 'default'} disabled={disabled}>
          <DrawIcon />
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** Private-note mode: what is sent stays inside the team. */
export function PrivateToggle({ on, onChange, disabled }: ToggleProps) {
  const { t } = useTranslation();
  const label = t('conversation.composer.private');
  return (
    <Tooltip title={label}>
      <span>
        <IconButton aria-label={label} aria-pressed={on} onClick={() => onChange(!on)} color={on ? 'warning' : 'default'} disabled={disabled}>
          {on ? <LockIcon /> : <LockOpenIcon />}
        </IconButton>
      </span>
    </Tooltip>
  );
}
