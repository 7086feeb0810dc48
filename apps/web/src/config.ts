/** Runtime configuration injected by /runtime-config.js (served by the product). */
interface RuntimeConfig {
  apiUrl: string;
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
