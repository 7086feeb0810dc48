import { describe, expect, it } from 'vitest';
import { COMPANY_SETTING_DEFAULTS, companySettingsFormSchema, companySettingsIssues, updateCompanySettingBody } from './settings.js';

describe('company settings rules', () => {
  it('accept the defaults', () => {
    expect(companySettingsFormSchema.safeParse(COMPANY_SETTING_DEFAULTS).success).toBe(true);
  });

  it('require each message when its toggle asks for it (spec 1 §5)', () => {
    expect(companySettingsIssues({ ...COMPANY_SETTING_DEFAULTS, sendMsgTransfTicket: 'enabled' })).toEqual([{ path: 'transferMessage', message: 'Required' }]);
    expect(companySettingsIssues({ ...COMPANY_SETTING_DEFAULTS, sendGreetingAccepted: 'enabled', greetingAcceptedMessage: ' ' })).toEqual([
      { path: 'greetingAcceptedMessage', message: 'Required' },
    ]);
    expect(companySettingsIssues({ ...COMPANY_SETTING_DEFAULTS, acceptCallWhatsapp: 'disabled' })).toEqual([{ path: 'AcceptCallWhatsappMessage', message: 'Required' }]);
    expect(companySettingsIssues({ ...COMPANY_SETTING_DEFAULTS, sendQueuePosition: 'enabled', sendQueuePositionMessage: 'Você é o {{position}}' })).toEqual([]);
  });

  it('check one column: known keys only, values by kind', () => {
    expect(updateCompanySettingBody.safeParse({ column: 'scheduleType', data: 'queue' }).success).toBe(true);
    expect(updateCompanySettingBody.safeParse({ column: 'scheduleType', data: 'weekly' }).success).toBe(false);
    expect(updateCompanySettingBody.safeParse({ column: 'userRating', data: 'yes' }).success).toBe(false);
    expect(updateCompanySettingBody.safeParse({ column: 'chatBotType', data: 'text' }).success).toBe(true);
    expect(updateCompanySettingBody.safeParse({ column: 'botLanguage', data: 'en' }).success).toBe(true);
    expect(updateCompanySettingBody.safeParse({ column: 'botLanguage', data: 'fr' }).success).toBe(false);
    expect(updateCompanySettingBody.safeParse({ column: 'transferMessage', data: 'Transferido para {{queue}}' }).success).toBe(true);
    expect(updateCompanySettingBody.safeParse({ column: 'passwordHash', data: 'x' }).success).toBe(false);
  });
});
