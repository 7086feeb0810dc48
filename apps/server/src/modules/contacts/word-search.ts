import { CONTACT_COUNT_CAP, CONTACTS_PAGE_SIZE } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contactWordList, contactWords } from '../../db/schema/index.js';

/**
 * A term the word index answers exactly: one run of 3–100 characters without white space, ASCII
 * punctuation or digits (what the `contact_words_of` migration function splits on), so "contains the
 * term" is "one of the contact's words contains it". A term with digits is left to the trigram path:
 * its digits are also matched against the number with the punctuation ignored, and a number fragment
 * is inside thousands of distinct numbers while matching few contacts.
 */
const WORD_TERM = /^[^\s!-@[-`{-~]{3,100}$/u;
/** More distinct words than this containing the term: the trigram path answers instead. */
const MAX_WORDS = 50;

export const isWordTerm = (term: string) => WORD_TERM.test(term);

/**
 * The page's contact ids (one more than a page, for `hasMore`) in name order and the count, for a term
 * `isWordTerm` accepts, or undefined when the term is in too many distinct words. Each of the term's words
 * is a walk of `contact_words` in name order cut at the page's end, so the cost is the words' number times the
 * page's, whatever the number of matches (docs/contacts.md "Search at a million contacts").
 */
export async function pageByWords(db: DbOrTx, companyId: number, term: string, offset: number): Promise<{ ids: number[]; count: number } | undefined> {
  const { rows: found } = await db.execute<{ word: string }>(sql`
    select ${contactWordList.word} as word from ${contactWordList}
    where ${contactWordList.companyId} = ${companyId} and ${contactWordList.word} like '%' || lower(${term}) || '%'
    limit ${MAX_WORDS + 1}`);
  if (found.length > MAX_WORDS) return undefined;
  if (found.length === 0) return { ids: [], count: 0 };
  const words = found.map((w) => w.word);
  const end = offset + CONTACTS_PAGE_SIZE + 1;
  const { rows: page } = await db.execute<{ id: number }>(sql`
    select id from (
      select distinct w.name, w.contact_id as id
      from unnest(${sql.param(words)}::text[]) as t(word)
      cross join lateral (
        select name, contact_id from ${contactWords}
        where company_id = ${companyId} and word = t.word order by name, contact_id limit ${end}
      ) w
    ) m order by name, id limit ${CONTACTS_PAGE_SIZE + 1} offset ${offset}`);
  return { ids: page.map((r) => r.id), count: await countByWords(db, companyId, words) };
}

/** Contacts holding one or more of `words`, up to the cap: a contact with several of them counts once. */
async function countByWords(db: DbOrTx, companyId: number, words: string[]): Promise<number> {
  // Most terms settle on the first read (under the cap, or that many distinct contacts); many shared words, on the second.
  for (const limit of [CONTACT_COUNT_CAP + 1, (CONTACT_COUNT_CAP + 1) * 8]) {
    const { rows } = await db.execute<{ contacts: number; rows: number }>(sql`
      select count(distinct contact_id)::int as contacts, count(*)::int as rows from (
        select contact_id from ${contactWords} where company_id = ${companyId} and word = any(${sql.param(words)}::text[]) limit ${limit}
      ) r`);
    const { contacts = 0, rows: read = 0 } = rows[0] ?? {};
    if (read < limit || contacts > CONTACT_COUNT_CAP) return Math.min(contacts, CONTACT_COUNT_CAP);
  }
  return CONTACT_COUNT_CAP;
}
