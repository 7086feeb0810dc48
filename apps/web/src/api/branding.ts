import { useEffect } from 'react';
import {
  DEFAULT_PRIMARY_COLOR,
  FALLBACK_APP_NAME,
  FALLBACK_PRIMARY_DARK,
  FALLBACK_PRIMARY_LIGHT,
  isDefaultBrandingImage,
} from '@balcao/contracts';
import { usePublicSetting } from './publicSettings';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';
import { publicFileUrl } from '../config';

export interface Branding {
  appName: string;
  primaryLight: string;
  primaryDark: string;
  logoLight: string | null;
  logoDark: string | null;
  favicon: string | null;
  loginImage: string | null;
  signupImage: string | null;
  /** 'enabled' | 'disabled' | null while unknown. */
  userCreation: string | null;
  userCreationLoading: boolean;
}

/**
 * Spec 1 §9 branding defaults: the primary colours come from the public
 * settings, remembered in storage (default #065183 for light, #39ACE7 for
 * dark), with #0000FF / #39ACE7 as last fallbacks; the app name falls back to
 * 'O Plano'.
 */
export function resolvePrimary(
  mode: 'light' | 'dark',
  setting: string | null | undefined,
  stored: string | null | undefined,
): string {
  const value = setting || stored || (mode === 'light' ? DEFAULT_PRIMARY_COLOR : FALLBACK_PRIMARY_DARK);
  return value || (mode === 'light' ? FALLBACK_PRIMARY_LIGHT : FALLBACK_PRIMARY_DARK);
}

export function useBranding(): Branding {
  const appName = usePublicSetting('appName');
  const light = usePublicSetting('primaryColorLight');
  const dark = usePublicSetting('primaryColorDark');
  const logoLight = usePublicSetting('appLogoLight');
  const logoDark = usePublicSetting('appLogoDark');
  const favicon = usePublicSetting('appLogoFavicon');
  const loginImage = usePublicSetting('loginEnterImage');
  const signupImage = usePublicSetting('loginRegisterImage');
  const userCreation = usePublicSetting('userCreation');

  useEffect(() => {
    if (light.data) writeStorage(STORAGE_KEYS.primaryColorLight, light.data);
    if (dark.data) writeStorage(STORAGE_KEYS.primaryColorDark, dark.data);
  }, [light.data, dark.data]);

  const file = (v: string | null | undefined) => (v ? publicFileUrl(v) : null);
  // Without a logo of its own the app shows its name as text, which follows the appName setting.
  const logo = (v: string | null | undefined) => (v && !isDefaultBrandingImage(v) ? publicFileUrl(v) : null);
  return {
    // Nothing while the name loads: the fallback would flash before the real name (issue 12).
    appName: appName.isPending ? '' : appName.data || FALLBACK_APP_NAME,
    primaryLight: resolvePrimary('light', light.data, readStorage(STORAGE_KEYS.primaryColorLight)),
    primaryDark: resolvePrimary('dark', dark.data, readStorage(STORAGE_KEYS.primaryColorDark)),
    logoLight: logo(logoLight.data),
    logoDark: logo(logoDark.data),
    favicon: file(favicon.data),
    loginImage: file(loginImage.data),
    signupImage: file(signupImage.data),
    userCreation: userCreation.data ?? null,
    userCreationLoading: userCreation.isPending,
  };
}
