/** Runtime configuration injected by /runtime-config.js (served by the product). */
interface RuntimeConfig {
  apiUrl: string;
  /** Meta app id for the Facebook/Instagram login SDK (optional). */
  facebookAppId: string;
  /** The server has both FACEBOOK_APP_ID and FACEBOOK_APP_SECRET: Pages can be added. */
  metaConfigured: boolean;
  /** Support WhatsApp number (digits) for the "call support" button (optional). */
  supportWhatsapp: string;
}

declare global {
  interface Window {
    __BALCAO__?: Partial<RuntimeConfig>;
  }
}

export function apiUrl(): string {
  const url = window.__BALCAO__?.apiUrl ?? 'http://localhost:8080';
  return url.replace(/\/+$/, '');
}

/** Public URL of a branding file stored by the API. */
export function publicFileUrl(fileName: string): string {
  return `${apiUrl()}/public/${fileName}`;
}

/** Meta app id from the runtime config, or null when the server exposes none. */
export function facebookAppId(): string | null {
  const id = window.__BALCAO__?.facebookAppId;
  return typeof id === 'string' && id.trim() ? id.trim() : null;
}

/** Whether the server can add Facebook/Instagram connections (older servers without the flag: assume it can). */
export function metaConfigured(): boolean {
  return window.__BALCAO__?.metaConfigured ?? true;
}

/** The support chat link (spec 1 §1: the support WhatsApp number comes from configuration), or null. */
export function supportChatUrl(): string | null {
  const digits = (window.__BALCAO__?.supportWhatsapp ?? '').replace(/\D/g, '');
  return digits ? `https://wa.me/${digits}` : null;
}
