import { describe, expect, it } from 'vitest';
import { countByCompany } from './counts';

describe('all connections counts', () => {
  it('counts only CONNECTED as connected, lists companies without connections, and totals', () => {
    const { rows, totals } = countByCompany(
      [
        { id: 1, name: 'Platform' },
        { id: 2, name: 'Acme' },
        { id: 3, name: 'Empty' },
      ],
      [
        { companyId: 1, status: 'CONNECTED' },
        { companyId: 1, status: 'qrcode' },
        { companyId: 2, status: 'TIMEOUT' },
        { companyId: 2, status: 'CONNECTED' },
        { companyId: 2, status: 'PAIRING' },
        { companyId: 4, status: 'OPENING', company: { id: 4, name: 'Late' } },
      ],
    );
    expect(rows).toEqual([
      { companyId: 1, name: 'Platform', connected: 1, disconnected: 1, total: 2 },
      { companyId: 2, name: 'Acme', connected: 1, disconnected: 2, total: 3 },
      { companyId: 3, name: 'Empty', connected: 0, disconnected: 0, total: 0 },
      { companyId: 4, name: 'Late', connected: 0, disconnected: 1, total: 1 },
    ]);
    expect(totals).toEqual({ connected: 2, disconnected: 4, total: 6 });
  });
});
