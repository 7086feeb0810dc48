import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { readStorage, writeStorage } from '../../../api/storage';
import { notificationsSupported } from './useTicketNotifications';

/** Remembered once answered or dismissed: the question is asked once per browser. */
const ASKED_KEY = 'ticketNotificationsAsked';

/** Asks, once and politely, to allow desktop notifications for new messages. */
export function NotificationPrompt() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(
    () => notificationsSupported() && Notification.permission === 'default' && readStorage(ASKED_KEY) === null,
  );
  if (!visible) return null;
  const done = () => {
    writeStorage(ASKED_KEY, '1');
    setVisible(false);
  };
  const enable = () => {
    void Notification.requestPermission().finally(done);
  };
  return (
    <Alert
      severity="info"
      variant="outlined"
      sx={{ m: 1, py: 0, alignItems: 'center', '& .MuiAlert-message': { fontSize: 13 } }}
      action={
        <>
          <Button size="small" onClick={done}>
            {t('tickets.notification.later')}
          </Button>
          <Button size="small" variant="contained" onClick={enable}>
            {t('tickets.notification.enable')}
          </Button>
        </>
      }
    >
      {t('tickets.notification.prompt')}
    </Alert>
  );
}
