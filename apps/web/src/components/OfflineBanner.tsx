import { useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';

function subscribe(cb: () => void): () => void {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
  };
}

/** Spec 1 §8: shown while the browser reports no connection. */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
  if (online) return null;
  return (
    <Alert
      severity="warning"
      variant="filled"
      data-testid="offline-banner"
      sx={{ position: 'fixed', bottom: 16, left: '50%', transform: 'translateX(-50%)', zIndex: 2000 }}
    >
      {t('offline')}
    </Alert>
  );
}
