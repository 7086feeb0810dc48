import { facebookAppId } from '../../config';

/** The part of Meta's JS SDK this page uses. */
interface FacebookAuthResponse {
  accessToken: string;
  userID: string;
}
export interface FacebookLoginResponse {
  status: 'connected' | 'not_authorized' | 'unknown' | string;
  authResponse?: FacebookAuthResponse | null;
}
export interface FacebookSdk {
  init(options: { appId: string; cookie?: boolean; xfbml?: boolean; version: string }): void;
  login(callback: (response: FacebookLoginResponse) => void, options: { scope: string; return_scopes?: boolean }): void;
}

declare global {
  interface Window {
    FB?: FacebookSdk;
    fbAsyncInit?: () => void;
  }
}

/** Spec 1 §9 gives 9.0 and 13.0; the newer one is used. */
export const FACEBOOK_SDK_VERSION = 'v13.0';
const SDK_URL = 'https://connect.facebook.net/en_US/sdk.js';
const SDK_TIMEOUT_MS = 4000;

/** Page messaging and business scopes; Instagram adds its basic and messaging scopes (spec 1 §7). */
export function loginScopes(instagram: boolean): string {
  const facebook = ['public_profile', 'pages_show_list', 'pages_messaging', 'pages_manage_metadata', 'pages_read_engagement', 'business_management'];
  return (instagram ? [...facebook, 'instagram_basic', 'instagram_manage_messages'] : facebook).join(',');
}

let loading: Promise<FacebookSdk | null> | null = null;

/**
 * Meta's SDK when it can be had: already on the page, or loaded for the app id
 * the runtime config exposes. Null without an app id or when it cannot load
 * (no network, blocked): the page then offers the token dialog.
 */
export function loadFacebookSdk(): Promise<FacebookSdk | null> {
  if (window.FB) return Promise.resolve(window.FB);
  const appId = facebookAppId();
  if (!appId) return Promise.resolve(null);
  loading ??= new Promise<FacebookSdk | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), SDK_TIMEOUT_MS);
    window.fbAsyncInit = () => {
      clearTimeout(timer);
      if (!window.FB) return resolve(null);
      window.FB.init({ appId, cookie: true, xfbml: false, version: FACEBOOK_SDK_VERSION });
      resolve(window.FB);
    };
    const script = document.createElement('script');
    script.src = SDK_URL;
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.onerror = () => {
      clearTimeout(timer);
      resolve(null);
    };
    document.body.appendChild(script);
  }).then((sdk) => {
    if (!sdk) loading = null;
    return sdk;
  });
  return loading;
}

/** Meta's login popup; resolves with the user token, or null when the result is to be ignored (unknown status, cancelled). */
export function facebookLogin(sdk: FacebookSdk, instagram: boolean): Promise<{ userId: string; token: string } | null> {
  return new Promise((resolve) => {
    sdk.login(
      (response) => {
        if (response.status === 'unknown' || !response.authResponse) return resolve(null);
        resolve({ userId: response.authResponse.userID, token: response.authResponse.accessToken });
      },
      { scope: loginScopes(instagram) },
    );
  });
}
