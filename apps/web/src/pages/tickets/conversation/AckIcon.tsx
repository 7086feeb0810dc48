import AccessTimeIcon from '@mui/icons-material/AccessTime';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import HeadsetIcon from '@mui/icons-material/Headset';
import { useTranslation } from 'react-i18next';
import type { Message } from '@balcao/contracts';
import { ackState } from './messageRules';

const sx = { fontSize: 16, verticalAlign: 'middle' } as const;

/** The tick beside an outgoing message's time (spec 2 §4); a failed send shows a warning instead. */
export function AckIcon({ message }: { message: Pick<Message, 'ack' | 'mediaType' | 'sendStatus'> }) {
  const { t } = useTranslation();
  if (message.sendStatus === 'failed') {
    return <ErrorOutlineIcon color="error" sx={sx} titleAccess={t('conversation.ack.failed')} data-testid="ack-failed" />;
  }
  const state = ackState(message.ack, message.mediaType);
  const label = t(`conversation.ack.${state}`);
  // titleAccess (not aria-label): MUI hides an SvgIcon from assistive technology unless it has a title.
  const common = { sx, titleAccess: label, 'data-testid': `ack-${state}` } as const;
  switch (state) {
    case 'clock':
      return <AccessTimeIcon {...common} />;
    case 'sent':
      return <DoneIcon {...common} />;
    case 'delivered':
      return <DoneAllIcon {...common} />;
    case 'read':
      return <DoneAllIcon {...common} sx={{ ...sx, color: '#2196f3' }} />;
    case 'played':
      return <HeadsetIcon {...common} sx={{ ...sx, color: '#2196f3' }} />;
  }
}
