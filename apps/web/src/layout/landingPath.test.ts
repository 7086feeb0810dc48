import { describe, expect, it } from 'vitest';
import { landingPath } from './landingPath';

const company = (id: number, dueDate: string | null) => ({ company: { id, dueDate } }) as Parameters<typeof landingPath>[0];
const now = new Date('2026-06-01T12:00:00');

describe('landingPath', () => {
  it('sends every profile to the inbox, never to the dashboard', () => {
    expect(landingPath(company(5, '2026-12-31'), now)).toBe('/tickets');
    expect(landingPath(company(1, '2999-12-31'), now)).toBe('/tickets');
    expect(landingPath(company(5, null), now)).toBe('/tickets');
  });

  it('sends a company whose subscription expired to the expiry page', () => {
    expect(landingPath(company(5, '2026-05-01'), now)).toBe('/financeiro-aberto');
  });
});
