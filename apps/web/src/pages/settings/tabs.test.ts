import { describe, expect, it } from 'vitest';
import { settingsTabs } from './tabs';

describe('settingsTabs', () => {
  it('gives an admin options and the audit log, and schedules only for scheduleType company', () => {
    expect(settingsTabs(false, 'disabled')).toEqual(['options', 'audit']);
    expect(settingsTabs(false, 'queue')).toEqual(['options', 'audit']);
    expect(settingsTabs(false, 'company')).toEqual(['options', 'schedules', 'audit']);
  });
  it('adds companies, plans, helps and whitelabel for the super user', () => {
    expect(settingsTabs(true, 'company')).toEqual(['options', 'schedules', 'audit', 'companies', 'plans', 'helps', 'whitelabel']);
  });
});
