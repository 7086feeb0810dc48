export type SettingsTab = 'options' | 'schedules' | 'audit' | 'companies' | 'plans' | 'helps' | 'whitelabel';

/** The tabs a user sees (spec 1 §2): schedules only for scheduleType 'company'; the audit log for every admin (issue 18); the last four for the super user. */
export function settingsTabs(isSuper: boolean, scheduleType: string | undefined): SettingsTab[] {
  const tabs: SettingsTab[] = ['options'];
  if (scheduleType === 'company') tabs.push('schedules');
  tabs.push('audit');
  if (isSuper) tabs.push('companies', 'plans', 'helps', 'whitelabel');
  return tabs;
}
