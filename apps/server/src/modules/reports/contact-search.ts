import { and, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contacts, contactWordList, contactWords } from '../../db/schema/index.js';
import { isWordTerm } from '../contacts/word-search.js';

/** A LIKE pattern containing `text`, its wildcards taken literally. */
export const likeLiteral = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A piece held (in a word) by more contacts than this is too common to lead the name's trigram scan. */
const COMMON_PIECE = 10_000;

/** Whether more than COMMON_PIECE of the company's contacts hold a word containing `piece` (issue 14's word index). */
async function isCommonPiece(db: DbOrTx, companyId: number, piece: string): Promise<boolean> {
  const { rows } = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (
      select 1 from ${contactWords}
      where ${contactWords.companyId} = ${companyId} and ${contactWords.word} in (
        select ${contactWordList.word} from ${contactWordList}
        where ${contactWordList.companyId} = ${companyId} and ${contactWordList.word} like ${likeLiteral(piece.toLowerCase())})
      limit ${COMMON_PIECE + 1}
    ) held`);
  return (rows[0]?.n ?? 0) > COMMON_PIECE;
}

/**
 * The report's contact filter: the contact's name or number contains `term`. A name search reads the name's
 * trigram index for every trigram of the term, and a trigram most names hold is a long list to read
 * (~100 ms for 'Cliente 777' over a million contacts all called 'Cliente n'). So the term's pieces (split on
 * white space) that the word index says are common lead no scan: the index is read for the other pieces
 * only, and the whole term is checked on the rows found. With no common piece, or only common ones, the
 * term is matched as it is (a term most contacts hold is answered walking the tickets newest first).
 */
export async function contactSearchWhere(db: DbOrTx, companyId: number, term: string): Promise<SQL> {
  const byNumber = ilike(contacts.number, likeLiteral(term));
  const pieces = term.split(/\s+/).filter((p) => p.length >= 3);
  const common = await Promise.all(pieces.map((p) => isWordTerm(p) && isCommonPiece(db, companyId, p)));
  const leaders = pieces.filter((_, i) => !common[i]);
  if (leaders.length === 0 || leaders.length === pieces.length) return or(ilike(contacts.name, likeLiteral(term)), byNumber) as SQL;
  // strpos is not indexable: the planner keeps it as a check on the leaders' rows instead of scanning for it.
  const byName = and(...leaders.map((p) => ilike(contacts.name, likeLiteral(p))), sql`strpos(lower(${contacts.name}), lower(${term})) > 0`);
  return or(byName, byNumber) as SQL;
}
