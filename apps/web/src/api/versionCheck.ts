/**
 * Spec 1 §4 Version: compare the backend's version with the one this browser
 * stored. With nothing stored yet the server's is stored silently.
 */
export type VersionDecision =
  | { kind: 'store'; version: string }
  | { kind: 'current' }
  | { kind: 'outdated'; version: string };

export function decideVersion(stored: string | null, server: string | null | undefined): VersionDecision {
  if (!server) return { kind: 'current' };
  if (!stored) return { kind: 'store', version: server };
  return stored === server ? { kind: 'current' } : { kind: 'outdated', version: server };
}
