import { describe, expect, it } from 'vitest';
import type { Contact } from '@balcao/contracts';
import { contactFormSchema, contactFormValues, contactUpdateBody, sameExtraInfo, serializeExtraInfo } from './contactForm';

const contact: Contact = {
  id: 7,
  name: 'Maria Souza',
  number: '5511987654321',
  email: '',
  channel: 'whatsapp',
  isGroup: false,
  urlPicture: null,
  profilePicUrl: null,
  active: true,
  acceptAudioMessage: true,
  disableBot: false,
  lgpdAcceptedAt: null,
  extraInfo: [{ id: 1, name: 'valor', value: '150.00' }],
  tags: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const messages = (input: unknown) => {
  const r = contactFormSchema(contact).safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};
const valid = contactFormValues(contact);

describe('contact form schema (spec 2 §5)', () => {
  it('accepts the contact as loaded', () => {
    expect(messages(valid)).toEqual({});
  });
  it('requires a name of 2 to 50 characters', () => {
    expect(messages({ ...valid, name: '  ' })).toEqual({ name: 'Required' });
    expect(messages({ ...valid, name: 'A' })).toEqual({ name: 'Too Short!' });
    expect(messages({ ...valid, name: 'A'.repeat(51) })).toEqual({ name: 'Too Long!' });
    expect(messages({ ...valid, name: 'A'.repeat(50) })).toEqual({});
  });
  it('wants a number of 8 to 50 characters', () => {
    expect(messages({ ...valid, number: '1234567' })).toEqual({ number: 'Too Short!' });
    expect(messages({ ...valid, number: '1'.repeat(51) })).toEqual({ number: 'Too Long!' });
    expect(messages({ ...valid, number: '12345678' })).toEqual({});
  });
  it('does not check an unchanged number (a stored id of another shape)', () => {
    const short = { ...contact, number: '2700001' };
    expect(contactFormSchema(short).safeParse({ ...valid, number: '2700001' }).success).toBe(true);
    expect(contactFormSchema(short).safeParse({ ...valid, number: '2700002' }).success).toBe(false);
  });
  it('takes an empty e-mail or a valid one', () => {
    expect(messages({ ...valid, email: 'nope' })).toEqual({ email: 'Invalid email' });
    expect(messages({ ...valid, email: 'maria@example.com' })).toEqual({});
  });
  it('needs a field name for an extra-info value, and lets blank rows pass', () => {
    expect(messages({ ...valid, extraInfo: [{ name: '', value: 'x' }] })).toEqual({ 'extraInfo.0.name': 'Required' });
    expect(messages({ ...valid, extraInfo: [{ name: ' ', value: ' ' }] })).toEqual({});
  });
});

describe('extra info', () => {
  it('serialises trimmed rows in order and drops blank ones', () => {
    expect(
      serializeExtraInfo([
        { name: ' CPF ', value: ' 123 ' },
        { name: '', value: '' },
        { name: 'Cidade', value: '' },
      ]),
    ).toEqual([
      { name: 'CPF', value: '123' },
      { name: 'Cidade', value: '' },
    ]);
  });
  it('compares lists by name, value and order', () => {
    const a = [{ name: 'a', value: '1' }, { name: 'b', value: '2' }];
    expect(sameExtraInfo(a, [{ name: 'a', value: '1' }, { name: 'b', value: '2' }])).toBe(true);
    expect(sameExtraInfo(a, [{ name: 'b', value: '2' }, { name: 'a', value: '1' }])).toBe(false);
    expect(sameExtraInfo(a, [{ name: 'a', value: '1' }])).toBe(false);
    expect(sameExtraInfo(a, [{ name: 'a', value: '1' }, { name: 'b', value: '3' }])).toBe(false);
  });
});

describe('contactUpdateBody', () => {
  const parse = (input: unknown) => contactFormSchema(contact).parse(input);
  it('leaves extraInfo and the number out when they did not change', () => {
    expect(contactUpdateBody(parse({ ...valid, name: 'Maria S.' }), contact)).toEqual({
      name: 'Maria S.',
      email: '',
      disableBot: false,
    });
  });
  it('sends a changed number, trimmed', () => {
    expect(contactUpdateBody(parse({ ...valid, number: ' 5511900001111 ' }), contact).number).toBe('5511900001111');
  });
  it('sends the whole list when a row changed, and an empty list to clear', () => {
    const changed = parse({ ...valid, extraInfo: [{ name: 'valor', value: '200.00' }, { name: 'CPF', value: '1' }] });
    expect(contactUpdateBody(changed, contact).extraInfo).toEqual([
      { name: 'valor', value: '200.00' },
      { name: 'CPF', value: '1' },
    ]);
    expect(contactUpdateBody(parse({ ...valid, extraInfo: [] }), contact).extraInfo).toEqual([]);
  });
  it('never sends back a number the server masked', () => {
    const masked = { ...contact, number: '5511*****4321' };
    const values = contactFormSchema(masked).parse(contactFormValues(masked));
    expect(contactUpdateBody(values, masked)).not.toHaveProperty('number');
  });
  it('lowercases the e-mail as the server stores it', () => {
    expect(contactUpdateBody(parse({ ...valid, email: ' Maria@Example.COM ' }), contact).email).toBe('maria@example.com');
  });
});
