import { REPORT_NO_QUEUE, reportCountLimit, type ReportFilter, type ReportRow } from '@balcao/contracts';
import { and, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contacts, queues, tickets, users, whatsapps } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { visibleTicketsWhere, type Viewer } from '../tickets/visibility.js';
import { contactSearchWhere } from './contact-search.js';

/**
 * The report's where clause: what the viewer's inbox shows (visibility rule, company scope),
 * then each filter. Dates are the ticket's opening day, database time zone.
 */
export async function reportWhere(db: DbOrTx, v: Viewer, f: ReportFilter): Promise<SQL> {
  const queueIds = (f.queueIds ?? []).filter((id) => id !== REPORT_NO_QUEUE);
  const noQueue = f.queueIds?.includes(REPORT_NO_QUEUE) ? isNull(tickets.queueId) : undefined;
  const search = f.searchParam?.trim();
  return and(
    visibleTicketsWhere(v),
    f.contactId ? eq(tickets.contactId, f.contactId) : undefined,
    search ? await contactSearchWhere(db, v.companyId, search) : undefined,
    f.whatsappId?.length ? inArray(tickets.whatsappId, f.whatsappId) : undefined,
    f.users?.length ? inArray(tickets.userId, f.users) : undefined,
    f.queueIds?.length ? or(queueIds.length ? inArray(tickets.queueId, queueIds) : undefined, noQueue) : undefined,
    f.status?.length ? inArray(tickets.status, f.status) : undefined,
    f.dateFrom ? gte(tickets.createdAt, sql`${f.dateFrom}::date::timestamptz`) : undefined,
    f.dateTo ? lt(tickets.createdAt, sql`(${f.dateTo}::date + 1)::timestamptz`) : undefined,
    f.onlyRated ? isNotNull(tickets.rate) : undefined,
  ) as SQL;
}

type CompanyTable = typeof whatsapps | typeof users | typeof queues | typeof contacts;

/** 400 when a filter names a connection, user, queue or contact outside the caller's company. */
export async function assertFilterIdsInCompany(db: DbOrTx, companyId: number, f: ReportFilter): Promise<void> {
  const named: [string, CompanyTable, number[]][] = [
    ['whatsappId', whatsapps, f.whatsappId ?? []],
    ['users', users, f.users ?? []],
    ['queueIds', queues, (f.queueIds ?? []).filter((id) => id !== REPORT_NO_QUEUE)],
    ['contactId', contacts, f.contactId ? [f.contactId] : []],
  ];
  const unknown = await Promise.all(
    named.map(async ([, table, ids]) => {
      if (ids.length === 0) return false;
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(table)
        .where(and(inArray(table.id, ids), eq(table.companyId, companyId)));
      return (row?.n ?? 0) !== new Set(ids).size;
    }),
  );
  const issues = named.filter((_, i) => unknown[i]).map(([path]) => ({ path, message: 'unknown id' }));
  if (issues.length) throw new AppError('ERR_VALIDATION', 400, undefined, issues);
}

/** Opening to closing as `HH:mm:ss` (hours past 24 kept), computed by PostgreSQL. */
const supportTime = sql<string | null>`CASE WHEN ${tickets.closedAt} IS NULL THEN NULL ELSE
  lpad(floor(extract(epoch FROM ${tickets.closedAt} - ${tickets.createdAt}) / 3600)::bigint::text, 2, '0') || ':' ||
  to_char(${tickets.closedAt} - ${tickets.createdAt}, 'MI:SS') END`;

/** The report's rows and joins; callers add where, order and limit. */
export function reportSelect(db: DbOrTx) {
  return db
    .select({
      id: tickets.id,
      uuid: tickets.uuid,
      whatsappName: whatsapps.name,
      contactName: contacts.name,
      userName: users.name,
      queueName: queues.name,
      status: tickets.status,
      lastMessage: tickets.lastMessage,
      createdAt: tickets.createdAt,
      closedAt: tickets.closedAt,
      supportTime,
      NPS: tickets.rate,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId));
}

export type ReportDbRow = Awaited<ReturnType<ReturnType<typeof reportSelect>['execute']>>[number];

export const presentReportRow = (r: ReportDbRow): ReportRow => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  closedAt: r.closedAt?.toISOString() ?? null,
});

/**
 * One page, newest ticket first, and the total: the matching tickets counted up to `reportCountLimit`
 * (REPORT_COUNT_CAP, or one row past the page asked for when further, so a next page always shows when
 * there is one), with only the joins the filter reads. docs/dashboard.md.
 */
export async function reportPage(db: DbOrTx, f: ReportFilter, where: SQL, page: number, pageSize: number): Promise<{ rows: ReportDbRow[]; total: number }> {
  const offset = (page - 1) * pageSize;
  if (f.searchParam?.trim()) return reportPageOfSearch(db, where, offset, pageSize, reportCountLimit(page, pageSize));
  const matching = db.select({ one: sql<number>`1`.as('one') }).from(tickets);
  const [rows, [counted]] = await Promise.all([
    reportSelect(db).where(where).orderBy(desc(tickets.id)).limit(pageSize).offset(offset),
    db.select({ total: sql<number>`count(*)::int` }).from(matching.where(where).limit(reportCountLimit(page, pageSize)).as('matching')),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/**
 * A contact search's page and total, its contacts matched ONCE when it can: one statement counts the matching
 * tickets up to the count limit and cuts the newest page's ids out of them; under the limit that set holds every
 * match, so the page is exact and its rows are read by id. Matching contacts is the trigram scan of their names
 * (~100 ms over a million contacts sharing a name's words), which the page and the count each ran before
 * (docs/BENCHMARKS.md). At the limit (a term most contacts hold, which the scan walks tickets newest first to
 * answer quickly), the page is read as for the other filters.
 */
async function reportPageOfSearch(db: DbOrTx, where: SQL, offset: number, pageSize: number, countLimit: number) {
  const matching = db.select({ id: tickets.id }).from(tickets).innerJoin(contacts, eq(contacts.id, tickets.contactId)).where(where).limit(countLimit).as('matching');
  const [found] = await db
    .select({
      total: sql<number>`count(*)::int`,
      ids: sql<number[] | null>`(array_agg(${matching.id} ORDER BY ${matching.id} DESC))[${offset + 1}:${offset + pageSize}]`,
    })
    .from(matching);
  const total = found?.total ?? 0;
  if (total >= countLimit) return { rows: await reportSelect(db).where(where).orderBy(desc(tickets.id)).limit(pageSize).offset(offset), total };
  const ids = found?.ids ?? [];
  const rows = ids.length ? await reportSelect(db).where(inArray(tickets.id, ids)).orderBy(desc(tickets.id)) : [];
  return { rows, total };
}
