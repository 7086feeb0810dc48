import { describe, expect, it } from 'vitest';
import { settingsTabs } from './tabs';

describe('settingsTabs', () => {
  it('gives an admin options, and schedules only for scheduleType company', () => {
    expect(settingsTabs(false, 'disabled')).toEqual(['options']);
    expect(settingsTabs(false, 'queue')).toEqual(['options']);
    expect(settingsTabs(false, 'company')).toEqual(['options', 'schedules']);
  });
  it('adds companies, plans, helps and whitelabel for the super user', () => {
    expect(settingsTabs(true, 'company')).toEqual(['options', 'schedules', 'companies', 'plans', 'helps', 'whitelabel']);
  });
});
