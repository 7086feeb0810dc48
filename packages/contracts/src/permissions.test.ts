import { describe, expect, it } from 'vitest';
import { can, canSeeAdministration, canSeeManagement } from './permissions.js';

const base = { profile: 'user', super: false, showDashboard: 'disabled', allowRealTime: 'disabled', allowConnections: 'disabled' } as const;

describe('permission table', () => {
  it('gives a plain user nothing and an admin the table', () => {
    expect(can('user', 'dashboard:view')).toBe(false);
    expect(can('admin', 'dashboard:view')).toBe(true);
    expect(can('admin', 'connections-page:addConnection')).toBe(true);
  });

  it('widens the management group with showDashboard or allowRealTime', () => {
    expect(canSeeManagement(base)).toBe(false);
    expect(canSeeManagement({ ...base, showDashboard: 'enabled' })).toBe(true);
    expect(canSeeManagement({ ...base, allowRealTime: 'enabled' })).toBe(true);
  });

  it('widens the administration block with allowConnections only', () => {
    expect(canSeeAdministration({ ...base, showDashboard: 'enabled' })).toBe(false);
    expect(canSeeAdministration({ ...base, allowConnections: 'enabled' })).toBe(true);
    expect(canSeeAdministration({ ...base, profile: 'admin' })).toBe(true);
  });
});
