import { describe, expect, it } from 'vitest';
import { IMPORT_STATUS_RENDER_CLOSE, IMPORT_STATUS_RUNNING, whatsappFormSchema } from '@balcao/contracts';
import {
  firstTabWithError,
  formDefaults,
  formErrorKey,
  formatConnectionDate,
  generateToken,
  greetingIssue,
  importState,
  importWindow,
  isGreetingMedia,
  resetsSession,
} from './connectionForm';

const issuesOf = (patch: Record<string, unknown>) => {
  const r = whatsappFormSchema.safeParse({ ...formDefaults(null), name: 'Main line', ...patch });
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('connection form', () => {
  it('generates 30-character alphanumeric tokens', () => {
    const token = generateToken();
    expect(token).toMatch(/^[A-Za-z0-9]{30}$/);
    expect(generateToken()).not.toBe(token);
  });

  it('defaults of a new connection pass the contract schema', () => {
    expect(issuesOf({})).toEqual([]);
    const d = formDefaults(null);
    expect(d.maxUseBotQueues).toBe('3');
    expect(d.maxUseBotQueuesNPS).toBe('3');
    expect(d.token).toHaveLength(30);
  });

  it('holds chosen queues, integration and prompt as the select fields give them: ids, none as null', () => {
    const stored = { ...whatsappFormSchema.parse({ name: 'Main line' }), id: 1, timeSendQueue: 5, sendIdQueue: 4, queueIdImportMessages: 0, integrationId: null, promptId: 7 };
    const d = formDefaults(stored as unknown as Parameters<typeof formDefaults>[0]);
    expect([d.sendIdQueue, d.queueIdImportMessages, d.integrationId, d.promptId]).toEqual([4, null, null, 7]);
    expect(whatsappFormSchema.parse(d)).toMatchObject({ sendIdQueue: 4, queueIdImportMessages: null, integrationId: null, promptId: 7 });
  });

  it('rejects the invalid combinations of spec 1 §5 with the spec messages', () => {
    expect(issuesOf({ name: 'a' })).toContainEqual({ path: 'name', message: 'Too Short!' });
    expect(issuesOf({ name: 'x'.repeat(51) })).toContainEqual({ path: 'name', message: 'Too Long!' });
    expect(issuesOf({ ratingMessage: 'Rate us', expiresTicketNPS: '0' })).toContainEqual({
      path: 'expiresTicketNPS',
      message: 'whatsappModal.errorExpiresNPS',
    });
    expect(issuesOf({ timeSendQueue: '5', sendIdQueue: '' })).toContainEqual({ path: 'sendIdQueue', message: 'whatsappModal.errorSendQueue' });
    expect(issuesOf({ timeSendQueue: '', sendIdQueue: '4' })).toContainEqual({ path: 'timeSendQueue', message: 'whatsappModal.errorSendQueue' });
    expect(issuesOf({ collectiveVacationMessage: 'Away' }).map((i) => i.path)).toEqual(
      expect.arrayContaining(['collectiveVacationStart', 'collectiveVacationEnd']),
    );
    expect(issuesOf({ enableImportMessage: true, importOldMessages: '2001-01-01', importRecentMessages: '', queueIdImportMessages: '' }).map((i) => i.path)).toEqual(
      expect.arrayContaining(['importOldMessages', 'importRecentMessages', 'queueIdImportMessages']),
    );
    expect(issuesOf({ timeInactiveMessage: '10', expiresTicket: '0' })).toContainEqual({ path: 'expiresTicket', message: 'Required' });
  });

  it('accepts an import window inside the last two years', () => {
    const { min, max } = importWindow();
    expect(issuesOf({ enableImportMessage: true, importOldMessages: min, importRecentMessages: max, queueIdImportMessages: '1' })).toEqual([]);
  });

  it('maps contract messages to what the form shows', () => {
    expect(formErrorKey('Too Short!')).toEqual({ text: 'Too Short!' });
    expect(formErrorKey('whatsappModal.errorSendQueue')).toEqual({ key: 'whatsappModal.errorSendQueue' });
    expect(formErrorKey('Required')).toEqual({ key: 'whatsappModal.validation.required' });
    expect(formErrorKey('between 2 years ago and now')).toEqual({ key: 'whatsappModal.validation.importOldRange' });
    expect(formErrorKey('not before 10 days ago')).toEqual({ key: 'whatsappModal.validation.vacationMin' });
    expect(formErrorKey(undefined)).toBeNull();
  });

  it('requires a greeting with more than one queue', () => {
    expect(greetingIssue({ queueIds: [1, 2], greetingMessage: ' ' })).toBe('backendErrors.ERR_WAPP_GREETING_REQUIRED');
    expect(greetingIssue({ queueIds: [1, 2], greetingMessage: 'Hi' })).toBeNull();
    expect(greetingIssue({ queueIds: [1], greetingMessage: '' })).toBeNull();
  });

  it('opens the first tab holding an error', () => {
    expect(firstTabWithError(['ratingMessage', 'sendIdQueue'])).toBe('chatbot');
    expect(firstTabWithError(['expiresTicketNPS'])).toBe('assessments');
    expect(firstTabWithError(['name', 'expiresTicketNPS'])).toBe('general');
    expect(firstTabWithError([])).toBeNull();
  });

  it('accepts image or video media only', () => {
    expect(isGreetingMedia({ type: 'image/png' })).toBe(true);
    expect(isGreetingMedia({ type: 'video/mp4' })).toBe(true);
    expect(isGreetingMedia({ type: 'application/pdf' })).toBe(false);
    expect(isGreetingMedia({ type: 'audio/ogg' })).toBe(false);
  });

  it('resets the session when a CONNECTED connection is saved with import enabled', () => {
    expect(resetsSession('CONNECTED', true)).toBe(true);
    expect(resetsSession('CONNECTED', false)).toBe(false);
    expect(resetsSession('qrcode', true)).toBe(false);
  });

  it('tells the import state: preparing for 35 s after its timestamp, running, close tickets', () => {
    const ts = 1_700_000_000_000;
    expect(importState(String(ts), ts + 10_000)).toEqual({ kind: 'preparing', until: ts + 35_000 });
    expect(importState(String(ts), ts + 36_000)).toEqual({ kind: 'none' });
    expect(importState(IMPORT_STATUS_RUNNING)).toEqual({ kind: 'running' });
    expect(importState(IMPORT_STATUS_RENDER_CLOSE)).toEqual({ kind: 'closeTickets' });
    expect(importState(null)).toEqual({ kind: 'none' });
  });

  it('formats dates as dd/MM/yy HH:mm', () => {
    const d = new Date(2025, 5, 15, 9, 5);
    expect(formatConnectionDate(d.toISOString())).toBe('15/06/25 09:05');
    expect(formatConnectionDate(null)).toBe('');
  });
});
