import { describe, expect, it } from 'vitest';
import { addMonths, createCompanyBody, dueDateColour, renewDueDate } from './companies.js';

describe('renewDueDate', () => {
  it('adds the recurrence months: 1, 2, 3, 6 and 12', () => {
    expect(renewDueDate('2025-03-15', 'MENSAL', '2025-01-01')).toBe('2025-04-15');
    expect(renewDueDate('2025-03-15', 'BIMESTRAL', '2025-01-01')).toBe('2025-05-15');
    expect(renewDueDate('2025-03-15', 'TRIMESTRAL', '2025-01-01')).toBe('2025-06-15');
    expect(renewDueDate('2025-03-15', 'SEMESTRAL', '2025-01-01')).toBe('2025-09-15');
    expect(renewDueDate('2025-03-15', 'ANUAL', '2025-01-01')).toBe('2026-03-15');
  });

  it('clamps to the end of shorter months and crosses years', () => {
    expect(renewDueDate('2025-01-31', 'MENSAL', '2025-01-01')).toBe('2025-02-28');
    expect(renewDueDate('2024-01-31', 'MENSAL', '2024-01-01')).toBe('2024-02-29');
    expect(renewDueDate('2025-08-31', 'SEMESTRAL', '2025-01-01')).toBe('2026-02-28');
    expect(renewDueDate('2024-02-29', 'ANUAL', '2024-01-01')).toBe('2025-02-28');
    expect(renewDueDate('2025-11-30', 'TRIMESTRAL', '2025-01-01')).toBe('2026-02-28');
    expect(addMonths('2025-12-31', 1)).toBe('2026-01-31');
    expect(addMonths('2025-05-31', 1)).toBe('2025-06-30');
  });

  it('renews from today when the company has no due date', () => {
    expect(renewDueDate(null, 'MENSAL', '2025-07-10')).toBe('2025-08-10');
  });
});

describe('dueDateColour', () => {
  const today = '2025-03-10';
  it('is red today or past, yellow within 1–5 days, none beyond', () => {
    expect(dueDateColour('2025-03-01', today)).toBe('red');
    expect(dueDateColour('2025-03-10', today)).toBe('red');
    expect(dueDateColour('2025-03-11', today)).toBe('yellow');
    expect(dueDateColour('2025-03-15', today)).toBe('yellow');
    expect(dueDateColour('2025-03-16', today)).toBeNull();
    expect(dueDateColour(null, today)).toBeNull();
  });

  it('counts whole calendar days across a month and a DST change', () => {
    expect(dueDateColour('2025-04-02', '2025-03-28')).toBe('yellow');
    expect(dueDateColour('2025-04-03', '2025-03-28')).toBeNull();
  });
});

describe('company form', () => {
  it("uses the spec's messages and sends an empty due date as null", () => {
    const bad = createCompanyBody.safeParse({ name: 'A', email: 'nope', password: '123456' });
    expect(bad.success).toBe(false);
    const messages = Object.fromEntries((bad.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(messages).toMatchObject({ name: 'Too Short!', email: 'Invalid email', planId: 'Required' });
    const ok = createCompanyBody.parse({ name: 'Acme', email: 'A@B.COM', password: '123456', planId: 1, dueDate: '' });
    expect(ok).toMatchObject({ email: 'a@b.com', dueDate: null });
  });
});
