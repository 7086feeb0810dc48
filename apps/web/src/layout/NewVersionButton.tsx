import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { toastError } from '../components/toast';
import { useUser } from '../api/session';
import { readStorage, STORAGE_KEYS, writeStorage } from '../api/storage';
import { postVersion, useServerVersion } from '../api/version';
import { decideVersion } from '../api/versionCheck';

async function clearCaches(): Promise<void> {
  if (!('caches' in window)) return;
  const keys = await window.caches.keys();
  await Promise.all(keys.map((k) => window.caches.delete(k)));
}

/** Spec 1 §4 Version: a red button when the backend's version differs from the stored one. */
export function NewVersionButton() {
  const { t } = useTranslation();
  const user = useUser();
  const { data: serverVersion } = useServerVersion();
  const [outdated, setOutdated] = useState<string | null>(null);

  useEffect(() => {
    const decision = decideVersion(readStorage(STORAGE_KEYS.version), serverVersion);
    if (decision.kind === 'store') writeStorage(STORAGE_KEYS.version, decision.version);
    setOutdated(decision.kind === 'outdated' ? decision.version : null);
  }, [serverVersion]);

  if (!outdated) return null;
  const update = async () => {
    writeStorage(STORAGE_KEYS.version, outdated);
    // Recording the deployed version is the super user's act (the API refuses others);
    // everyone else only takes the new build.
    if (user.super) await postVersion(outdated).catch(toastError);
    await clearCaches().catch(() => undefined);
    setTimeout(() => window.location.reload(), 1000);
  };
  return (
    <Button
      variant="contained"
      color="error"
      size="small"
      data-testid="new-version"
      onClick={() => void update()}
      sx={{ mx: 1, whiteSpace: 'nowrap' }}
    >
      {t('topBar.newVersion')}
    </Button>
  );
}
