/** One company's row of /allConnections. */
export interface CompanyConnectionCounts {
  companyId: number;
  name: string;
  connected: number;
  disconnected: number;
  total: number;
}

/**
 * Connections counted per company (spec 1 §2 "All connections"): only CONNECTED
 * counts as connected, every other status as disconnected. Companies without
 * connections are listed with zeros; rows follow the companies' order.
 */
export function countByCompany(
  companies: ReadonlyArray<{ id: number; name: string }>,
  connections: ReadonlyArray<{ companyId: number; status: string; company?: { id: number; name: string } }>,
): { rows: CompanyConnectionCounts[]; totals: Omit<CompanyConnectionCounts, 'companyId' | 'name'> } {
  const rows = new Map<number, CompanyConnectionCounts>();
  for (const c of companies) rows.set(c.id, { companyId: c.id, name: c.name, connected: 0, disconnected: 0, total: 0 });
  for (const w of connections) {
    let row = rows.get(w.companyId);
    if (!row) {
      row = { companyId: w.companyId, name: w.company?.name ?? String(w.companyId), connected: 0, disconnected: 0, total: 0 };
      rows.set(w.companyId, row);
    }
    if (w.status === 'CONNECTED') row.connected += 1;
    else row.disconnected += 1;
    row.total += 1;
  }
  const list = [...rows.values()];
  const totals = list.reduce(
    (acc, r) => ({ connected: acc.connected + r.connected, disconnected: acc.disconnected + r.disconnected, total: acc.total + r.total }),
    { connected: 0, disconnected: 0, total: 0 },
  );
  return { rows: list, totals };
}
