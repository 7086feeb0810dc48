import { describe, expect, it } from 'vitest';
import { decideVersion } from './versionCheck';

describe('decideVersion', () => {
  it('stores the server version silently when none is stored', () => {
    expect(decideVersion(null, '2.0.4-v3')).toEqual({ kind: 'store', version: '2.0.4-v3' });
    expect(decideVersion('', '2.0.4-v3')).toEqual({ kind: 'store', version: '2.0.4-v3' });
  });
  it('is current when both match', () => {
    expect(decideVersion('2.0.4-v3', '2.0.4-v3')).toEqual({ kind: 'current' });
  });
  it('reports a new version on mismatch', () => {
    expect(decideVersion('2.0.3', '2.0.4-v3')).toEqual({ kind: 'outdated', version: '2.0.4-v3' });
  });
  it('does nothing when the server gives no version', () => {
    expect(decideVersion('2.0.3', null)).toEqual({ kind: 'current' });
    expect(decideVersion(null, undefined)).toEqual({ kind: 'current' });
  });
});
