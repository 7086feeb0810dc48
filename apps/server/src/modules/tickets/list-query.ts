import { TICKET_COUNT_CAP, TICKETS_PER_PAGE, type ListTicketsQuery, type TicketListResponse } from '@balcao/contracts';
import { and, asc, desc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { containsPattern } from '../../db/search.js';
import { contacts, messages, tags, ticketTags, tickets } from '../../db/schema/index.js';
import { loadTicketsByIds } from './queries.js';
import { anyOf, seesWholeCompany, visibleTicketsWhere, type OwnerBranch, type Viewer } from './visibility.js';

/**
 * The inbox list's where clause (docs/inbox.md "Visibility"): what the viewer may
 * see (`visibleTicketsWhere`), narrowed by the view and then by the filters.
 * Filters only ever add conditions, so they never widen what the viewer sees;
 * ids from another company match nothing because the company is always part of it.
 */
export function ticketListWhere(
  v: Viewer,
  q: ListTicketsQuery,
  messageSearch: MessageSearch = 'matchesFirst',
  branch: OwnerBranch = 'all',
  tagFilter: TagFilter = 'ticketsFirst',
): SQL {
  // History: the whole list for those who see the whole company, else one's own tickets (always visible:
  // the rule's "or" is left out, so the planner walks the viewer's own index without it).
  const ownHistory = ownHistoryOf(v, q);
  const conditions: (SQL | undefined)[] = [visibleTicketsWhere(v, ownHistory ? 'own' : branch), ...statusAndOwner(v, q, branch, tickets)];
  // Tickets without a queue are not narrowed by the queue selection (the visibility rule decides them).
  if (q.queueIds?.length) conditions.push(or(isNull(tickets.queueId), anyOf(tickets.queueId, q.queueIds)));
  if (q.whatsapps?.length && v.isAdmin) conditions.push(anyOf(tickets.whatsappId, q.whatsapps));
  if (q.tags?.length && tagFilter !== 'joined') {
    const tagged = sql`select ${ticketTags.ticketId} from ${ticketTags} join ${tags} on ${tags.id} = ${ticketTags.tagId}
      where ${tags.companyId} = ${v.companyId} and ${anyOf(ticketTags.tagId, q.tags)}`;
    conditions.push(
      tagFilter === 'tagsFirst'
        ? sql`${tickets.id} = any(array(${tagged}))`
        : // `offset 0` keeps the probe a per-row filter of the walk: as a semi-join the planner hashed the
          // whole tab (40 000 open tickets) to find a page that ~500 probes find (25 ms → 1 ms at 1 M).
          sql`exists (${tagged} and ${ticketTags.ticketId} = ${tickets.id} offset 0)`,
    );
  }
  if (q.withUnreadMessages) conditions.push(gt(tickets.unreadMessages, 0));
  if (q.date) conditions.push(onDay(tickets.createdAt, q.date));
  if (q.updatedAt) conditions.push(onDay(tickets.updatedAt, q.updatedAt));

  const search = searchCondition(v.companyId, q.searchParam, q.searchOnMessages ? messageSearch : undefined);
  if (search) conditions.push(search);
  return and(...conditions) as SQL;
}

/** History (closed, search) of a viewer who does not see the whole company: their own tickets. */
const ownHistoryOf = (v: Viewer, q: ListTicketsQuery) => (q.status === 'closed' || q.status === undefined || q.status === 'search') && !seesWholeCompany(v);

/**
 * The view's status and owner conditions and the status and user filters, on `tickets` or on the copy of
 * those two columns that `ticket_tags` carries (migration 0044: a tag filter narrows its read of the tag's
 * rows with them, then checks the ticket itself).
 */
function statusAndOwner(v: Viewer, q: ListTicketsQuery, branch: OwnerBranch, cols: { status: AnyPgColumn; userId: AnyPgColumn }): (SQL | undefined)[] {
  const view = q.status ?? 'search';
  const owner = { all: or(isNull(cols.userId), eq(cols.userId, v.id)), own: eq(cols.userId, v.id), unassigned: isNull(cols.userId) };
  return [
    view === 'search' ? undefined : eq(cols.status, view),
    ownHistoryOf(v, q) ? owner.own : unassignedOrOwn(v, q) ? owner[branch] : undefined,
    q.statusFilter?.length ? inArray(cols.status, q.statusFilter) : undefined,
    q.users?.length ? anyOf(cols.userId, q.users) : undefined,
  ];
}

/** The tabs (every status but closed) list unassigned tickets and one's own, unless show-all (admins, allUserChat). */
const unassignedOrOwn = (v: Viewer, q: ListTicketsQuery) =>
  q.status !== undefined && q.status !== 'closed' && q.status !== 'search' && !(q.showAll && (v.isAdmin || v.allUserChat));

/**
 * The where of one page in list order. A tab's "unassigned or own" is one condition that no
 * index serves in `updatedAt` order, so PostgreSQL would read every ticket of the tab (and
 * sort them) to find a page, or to find none. Instead each branch walks its own index in list
 * order up to the page's last row (`tickets_company_unassigned_idx`, `tickets_company_user_idx`),
 * and the page is taken from the two short lists merged.
 */
export function ticketPageWhere(v: Viewer, q: ListTicketsQuery, messageSearch?: MessageSearch, tagFilter?: TagFilter): SQL {
  if (!unassignedOrOwn(v, q)) return ticketListWhere(v, q, messageSearch, 'all', tagFilter);
  const dir = q.sortTickets === 'ASC' ? asc : desc;
  const upTo = q.pageNumber * TICKETS_PER_PAGE + 1;
  // Ordered by the indexes' own key (`updatedAt`) so each walk stops after the page; `with ties`
  // keeps every ticket sharing the last `updatedAt`, which the outer order then breaks by id.
  const walk = (branch: OwnerBranch) =>
    sql`(select ${tickets.id} from ${tickets} where ${ticketListWhere(v, q, messageSearch, branch, tagFilter)}
      order by ${dir(tickets.updatedAt)} fetch first ${upTo} rows with ties)`;
  return sql`${tickets.id} in (${walk('unassigned')} union all ${walk('own')})`;
}

const onDay = (col: AnyPgColumn, day: string): SQL => sql`(${col} >= ${day}::date and ${col} < ${day}::date + 1)`;

/**
 * How a message search is written (same results, different plans):
 * - `matchesFirst`: `id in (contact matches union all message matches)`, so PostgreSQL
 *   starts from the full-text index: fast while matches are few (a name, an order number);
 * - `ticketsFirst`: walk the tickets in list order and test each one's messages
 *   (`exists`): fast when matches are many (a common word), where the first would
 *   collect and sort every match.
 */
export type MessageSearch = 'matchesFirst' | 'ticketsFirst';

/** Estimated matching messages above which `ticketsFirst` wins. */
const COMMON_TERM_MATCHES = 2000;

/**
 * Contact name or number (ILIKE, trigram indexes) and, with `messageSearch`, message
 * bodies by full-text search. The expression `to_tsvector('simple', body)` must stay
 * exactly the one of `messages_body_fts_idx`, or the index is not used.
 */
function searchCondition(companyId: number, searchParam: string, messageSearch: MessageSearch | undefined): SQL | undefined {
  const pattern = containsPattern(searchParam);
  if (!pattern) return undefined;
  const byContact = sql`select ${contacts.id} from ${contacts}
    where ${contacts.companyId} = ${companyId} and (${contacts.name} ilike ${pattern} or ${contacts.number} ilike ${pattern})`;
  if (!messageSearch) return sql`${tickets.contactId} in (${byContact})`;
  const matches = sql`to_tsvector('simple', ${messages.body}) @@ plainto_tsquery('simple', ${searchParam.trim()})`;
  if (messageSearch === 'ticketsFirst') {
    // `offset 0`: the probe stays per ticket (with the prefilter the planner would hash every match instead).
    const probe = sql`select 1 from ${messages} where ${messages.ticketId} = ${tickets.id} and ${and(...bodyPrefilter(searchParam), matches)} offset 0`;
    return sql`(${tickets.contactId} in (${byContact}) or exists (${probe}))`;
  }
  return sql`${tickets.id} in (
    select t2.id from ${tickets} t2 where t2.company_id = ${companyId} and t2.contact_id in (${byContact})
    union all
    select ${messages.ticketId} from ${messages} where ${messages.companyId} = ${companyId} and ${matches}
  )`;
}

/**
 * A cheap necessary condition for the full-text match, tested first on each message a `ticketsFirst` probe reads:
 * `body ilike '%word%'` for each word of the search made of ASCII letters and digits only (such a word is one
 * lexeme, the word lowercased, and a lexeme of the 'simple' configuration is a piece of the text, lowercased).
 * `to_tsvector` of every body read was most of a common word's cost (17–32 → 8–16 ms at 1 M, list10d). Other
 * words (accents, punctuation) get none: how they are split and lowercased is PostgreSQL's to say.
 */
function bodyPrefilter(searchParam: string): SQL[] {
  const words = searchParam.trim().split(/\s+/).filter((w) => /^[a-z0-9]+$/i.test(w));
  return words.map((w) => sql`${messages.body} ilike ${`%${w}%`}`);
}

/**
 * `ticketsFirst` for common terms, else `matchesFirst`. A term is common when each of
 * its words is among the most common words in the statistics of `messages_body_fts_idx`
 * and the rarest of them is in more than COMMON_TERM_MATCHES messages. (The planner's
 * own estimate is no guide: a word missing from the statistics gets a fixed share of the table.)
 */
export async function chooseMessageSearch(db: DbOrTx, searchParam: string): Promise<MessageSearch> {
  const { rows } = await db.execute<{ estimate: number | null }>(sql`
    with words as (select unnest(tsvector_to_array(to_tsvector('simple', ${searchParam.trim()}))) as word),
      stats as (
        select most_common_elems::text::text[] as elems, most_common_elem_freqs as freqs
        from pg_stats where schemaname = 'public' and tablename = 'messages_body_fts_idx'
      )
    select min(coalesce(stats.freqs[array_position(stats.elems, words.word)], 0))
      * (select reltuples from pg_class where oid = 'public.messages'::regclass) as estimate
    from words, stats`);
  return (rows[0]?.estimate ?? 0) > COMMON_TERM_MATCHES ? 'ticketsFirst' : 'matchesFirst';
}

/**
 * How a tag filter is written (same results, different plans):
 * - `ticketsFirst`: walk the tickets in list order and probe each one's tags: fast when
 *   many tickets carry the tag (a match comes every few rows);
 * - `tagsFirst`: the tag's tickets are read first (`ticket_tags_tag_id_idx`) and fetched
 *   by id, then sorted: fast when few carry it, where the walk would read thousands of
 *   tickets (a closed history) between matches.
 */
export type TagFilter = 'tagsFirst' | 'ticketsFirst' | 'joined';

/** Tagged tickets up to which `tagsFirst` wins (fetching them by id beats walking the list). */
const RARE_TAG_TICKETS = 5000;

/** `tagsFirst` when the selected tags are on at most RARE_TAG_TICKETS tickets of the company (an index-only count that stops there). */
export async function chooseTagFilter(db: DbOrTx, companyId: number, tagIds: number[] | undefined): Promise<TagFilter> {
  if (!tagIds?.length) return 'ticketsFirst';
  const { rows } = await db.execute<{ n: number }>(sql`select ${taggedTickets(companyId, tagIds)} as n`);
  return tagFilterFor(rows[0]?.n ?? 0);
}

/** The company's tickets carrying any of the tags, counted up to one more than RARE_TAG_TICKETS (a scalar subquery). */
const taggedTickets = (companyId: number, tagIds: number[]) => sql`(select count(*)::int from (
    select 1 from ${ticketTags} join ${tags} on ${tags.id} = ${ticketTags.tagId}
    where ${tags.companyId} = ${companyId} and ${anyOf(ticketTags.tagId, tagIds)} limit ${RARE_TAG_TICKETS + 1}) tagged)`;

const tagFilterFor = (taggedCount: number): TagFilter => (taggedCount <= RARE_TAG_TICKETS ? 'tagsFirst' : 'ticketsFirst');

/**
 * `GET /tickets`: one page (40) of full tickets; `hasMore` from reading one row more.
 * `count` is exact up to TICKET_COUNT_CAP (message searches: the tickets up to this page, a lower
 * bound while `hasMore`). The page's ids are found first (`findPage`), then fetched by id through one
 * prepared statement (`loadTicketsByIds`), so the statement with the joins and includes is planned once
 * per connection, not per request (its planning cost more than most walks).
 * A tag filter's or message search's statements run without parallel workers: the walks read a
 * few thousand index entries, where starting workers costs more (docs/BENCHMARKS.md, "Inbox list").
 */
export async function listTickets(db: DbOrTx, v: Viewer, q: ListTicketsQuery): Promise<TicketListResponse> {
  const messageSearch = q.searchOnMessages && containsPattern(q.searchParam) ? await chooseMessageSearch(db, q.searchParam) : undefined;
  const offset = (q.pageNumber - 1) * TICKETS_PER_PAGE;
  const { ids, count, hasMore } =
    messageSearch || q.tags?.length
      ? await db.transaction(async (tx) => {
          await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
          return findPage(tx, v, q, messageSearch, offset);
        })
      : await findPage(db, v, q, messageSearch, offset);
  return { tickets: await loadTicketsByIds(db, v.companyId, ids, q.sortTickets === 'ASC' ? 'ASC' : 'DESC'), count, hasMore };
}

/**
 * The page's ids, `count` and `hasMore` (docs/inbox.md "The lists").
 * - Tag filters and contact searches read their matches first (`readMatches`: the tag's rows or the
 *   contacts' trigram matches, up to the cap): that one read is the count and, while the matches fit
 *   under the cap, the page. Past the cap the page is walked in list order as below.
 * - Every other list walks its page in list order and counts only when more pages follow.
 */
async function findPage(db: DbOrTx, v: Viewer, q: ListTicketsQuery, messageSearch: MessageSearch | undefined, offset: number) {
  const matchesFirst = readsMatchesFirst(q, messageSearch);
  let tagFilter: TagFilter | undefined;
  if (matchesFirst) {
    const matches = await readMatches(db, v, q, offset);
    if (matches.n <= TICKET_COUNT_CAP) return { ids: matches.ids, count: matches.n, hasMore: matches.n > offset + TICKETS_PER_PAGE };
    if (matches.tagged !== null) tagFilter = tagFilterFor(matches.tagged);
  }
  tagFilter ??= await chooseTagFilter(db, v.companyId, q.tags);
  const rows = await walkPageQuery(db, v, q, messageSearch, tagFilter, offset);
  const ids = rows.slice(0, TICKETS_PER_PAGE).map((r) => r.id);
  const hasMore = rows.length > TICKETS_PER_PAGE;
  let count = offset + ids.length;
  // A message search's count would test the messages of every candidate ticket: it stays the lower bound.
  if (!messageSearch && (hasMore || (ids.length === 0 && offset > 0))) {
    // Past the cap of a matches read: the cap, counted already.
    count = matchesFirst ? TICKET_COUNT_CAP : await countMatches(db, v, q);
  }
  return { ids, count, hasMore };
}

/** One page's ids (and one more, for `hasMore`) walked in list order. */
export function walkPageQuery(db: DbOrTx, v: Viewer, q: ListTicketsQuery, messageSearch: MessageSearch | undefined, tagFilter: TagFilter, offset: number) {
  const dir = q.sortTickets === 'ASC' ? asc : desc;
  return db
    .select({ id: tickets.id })
    .from(tickets)
    .where(ticketPageWhere(v, q, messageSearch, tagFilter))
    .orderBy(dir(tickets.updatedAt), dir(tickets.id))
    .limit(TICKETS_PER_PAGE + 1)
    .offset(offset);
}

async function countMatches(db: DbOrTx, v: Viewer, q: ListTicketsQuery): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from (${matchingSelect(v, q, sql`1`)} limit ${TICKET_COUNT_CAP}) matching`);
  return rows[0]?.n ?? 0;
}

/**
 * The list's matching tickets, up to one more than the cap: `n` of them, and the page's ids in list
 * order among them (the whole page when `n` is within the cap). One statement: the count and the page
 * come from one read of the matches, which for a contact search is the trigram match of the contacts.
 */
async function readMatches(db: DbOrTx, v: Viewer, q: ListTicketsQuery, offset: number) {
  const { rows } = await db.execute<{ n: number; ids: number[]; tagged: number | null }>(matchesStatement(v, q, offset));
  return rows[0] ?? { n: 0, ids: [], tagged: null };
}

/**
 * readMatches' statement (exported for the bench's plans). Past the cap a tag filter's page is walked, and
 * how depends on the tags' ticket count (`chooseTagFilter`): `tagged` carries it then, read in the same
 * statement (a `case` branch runs only when taken).
 */
export function matchesStatement(v: Viewer, q: ListTicketsQuery, offset: number): SQL {
  const dir = q.sortTickets === 'ASC' ? sql`asc` : sql`desc`;
  const tagged = q.tags?.length ? taggedTickets(v.companyId, q.tags) : sql`null::int`;
  return sql`
    with matching as materialized (${matchingSelect(v, q, sql`${tickets.id} as id, ${tickets.updatedAt} as updated_at`)} limit ${TICKET_COUNT_CAP + 1}),
      counted as (select count(*)::int as n from matching)
    select counted.n,
      array(select id from matching order by updated_at ${dir}, id ${dir} limit ${TICKETS_PER_PAGE} offset ${offset}) as ids,
      case when counted.n > ${TICKET_COUNT_CAP} then ${tagged} end as tagged
    from counted`;
}

/** Tag filters and contact searches (without a message search) read their matches first. */
export const readsMatchesFirst = (q: ListTicketsQuery, messageSearch: MessageSearch | undefined) =>
  !messageSearch && Boolean(q.tags?.length || containsPattern(q.searchParam));

/**
 * `select <columns> from … where …` of the list's matching tickets (no order, so the caller adds its limit).
 * A tab's "unassigned or own" is the two branches, each on its own index and cut at the cap, so counting
 * a user's tab never reads the company's whole tab (the `or` sent the planner through every owner's tickets).
 * A tag filter starts from the selected tags' `ticket_tags` rows and probes each ticket by id in
 * `tickets_id_list_idx` (id INCLUDE company, status, user, queue, updatedAt: index-only); walking the list
 * instead would read ~60 tickets per match of a tag that 1.7 % carry. A ticket with several of the tags
 * counts once, at the first of them.
 */
function matchingSelect(v: Viewer, q: ListTicketsQuery, columns: SQL): SQL {
  const from = (branch: OwnerBranch) => {
    if (!q.tags?.length) return sql`select ${columns} from ${tickets} where ${ticketListWhere(v, q, undefined, branch)}`;
    const selected = sql.join(q.tags.map((id) => sql`${id}`), sql`, `);
    const once =
      q.tags.length > 1
        ? sql`and not exists (select 1 from ${ticketTags} earlier
            where earlier.ticket_id = ${ticketTags.ticketId} and earlier.tag_id in (${selected}) and earlier.tag_id < ${ticketTags.tagId})`
        : sql``;
    // Each link in the range probes its ticket (`offset 0` keeps the lateral a per-row probe): hashed, the
    // join read the user's 45 000 closed tickets to meet the tag's ~800 links of theirs.
    return sql`select ${columns} from ${ticketTags} join ${tags} on ${tags.id} = ${ticketTags.tagId}
      cross join lateral (select ${tickets.id}, ${tickets.updatedAt} from ${tickets}
        where ${tickets.id} = ${ticketTags.ticketId} and ${ticketListWhere(v, q, undefined, branch, 'joined')} offset 0) ${tickets}
      where ${tags.companyId} = ${v.companyId} and ${ticketTags.tagId} in (${selected}) ${once}
        and ${and(sql`true`, ...statusAndOwner(v, q, branch, ticketTags))}`;
  };
  if (!unassignedOrOwn(v, q)) return from('all');
  // The branches are disjoint (no owner, the viewer): nothing is counted twice.
  return sql`select * from ((${from('unassigned')} limit ${TICKET_COUNT_CAP + 1}) union all (${from('own')} limit ${TICKET_COUNT_CAP + 1})) branches`;
}
