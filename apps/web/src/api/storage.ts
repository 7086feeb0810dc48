/** Every localStorage key the web app uses, in one place. */
export const STORAGE_KEYS = {
  token: 'token',
  version: 'version',
  theme: 'preferredTheme',
  volume: 'volume',
  language: 'language',
  campaignsFlag: 'cshow',
  primaryColorLight: 'primaryColorLight',
  primaryColorDark: 'primaryColorDark',
  // /todolist (spec 2 §2): the tasks live only in this browser.
  todoTasks: 'tasks',
} as const;

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage full or blocked: the preference simply is not remembered.
  }
}

export function removeStorage(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // ignore
  }
}

/** The token is stored as a JSON string, as clients of this product family do. */
export function getToken(): string | null {
  const raw = readStorage(STORAGE_KEYS.token);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'string' ? parsed : null;
  } catch {
    return raw;
  }
}

export function setToken(token: string): void {
  writeStorage(STORAGE_KEYS.token, JSON.stringify(token));
}

export function clearToken(): void {
  removeStorage(STORAGE_KEYS.token);
}
