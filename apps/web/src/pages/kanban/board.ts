import { KANBAN_MESSAGE_CHARS, KANBAN_NAME_CHARS, KANBAN_SORTS, laneOf, opportunityValue, type KanbanSort, type KanbanTicket } from '@balcao/contracts';

/** The board's arithmetic, apart from the screen (docs/kanban.md). */

/** The default column's droppable id; lanes use their tag id. */
export const DEFAULT_COLUMN = 'default';
export type ColumnId = number | typeof DEFAULT_COLUMN;

export const SORT_STORAGE_KEY = 'kanbanSort';
export const readSort = (raw: string | null): KanbanSort => (KANBAN_SORTS as readonly string[]).includes(raw ?? '') ? (raw as KanbanSort) : 'ticket';

export const cardValue = (card: KanbanTicket) => opportunityValue(card.contact.extraInfo);

const COMPARE: Record<KanbanSort, (a: KanbanTicket, b: KanbanTicket) => number> = {
  ticket: (a, b) => a.id - b.id,
  lastMessage: (a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id - b.id,
  // Highest value first; cards without a value last.
  value: (a, b) => (cardValue(b) ?? -Infinity) - (cardValue(a) ?? -Infinity) || a.id - b.id,
};

/** Cards per column (lanes by id, the default column for tickets without a lane), each sorted. */
export function columnsOf(cards: readonly KanbanTicket[], laneIds: readonly number[], sort: KanbanSort): Map<ColumnId, KanbanTicket[]> {
  const lanes = new Set(laneIds);
  const out = new Map<ColumnId, KanbanTicket[]>([[DEFAULT_COLUMN, []], ...laneIds.map((id) => [id, []] as [ColumnId, KanbanTicket[]])]);
  for (const card of cards) out.get(laneOf(card.tags, lanes) ?? DEFAULT_COLUMN)?.push(card);
  for (const list of out.values()) list.sort(COMPARE[sort]);
  return out;
}

/** The column header's total: the sum of its cards' values (cards without one add nothing). */
export const columnTotal = (cards: readonly KanbanTicket[]) => cards.reduce((sum, card) => sum + (cardValue(card) ?? 0), 0);

export const cardName = (name: string) => name.slice(0, KANBAN_NAME_CHARS);
export const cardMessage = (text: string) => text.slice(0, KANBAN_MESSAGE_CHARS);

const pad = (n: number) => String(n).padStart(2, '0');
/** yyyy-MM-dd of a local date (the date inputs' and the API's form). */
export const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** HH:mm when the card changed today, else dd/MM/yyyy (spec 2 §2). */
export function cardTime(updatedAt: string, now = new Date()): string {
  const d = new Date(updatedAt);
  if (isoDay(d) === isoDay(now)) return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** The value typed in the dialog: a number ≥ 0 with `,` or `.` as decimal separator, else null. */
export function parseValue(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  return Number(t);
}
