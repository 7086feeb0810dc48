import { ApiError } from '../../../api/http';

/** The ticket a 409 on `POST /tickets` names: the contact's open ticket (spec 2 §8 "Ticket creation conflict"). */
export interface ExistingTicket {
  id: number | null;
  uuid: string;
  userId: number | null;
  userName: string;
  queueName: string;
}

const asRecord = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : null);

function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return null;
  }
}

/**
 * The existing ticket of a 409, whose `error` holds it as a JSON string
 * (an object is accepted too); null for any other failure.
 */
export function parseTicketConflict(err: unknown): ExistingTicket | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const body = asRecord(err.data);
  const ticket = asRecord(parseMaybeJson(body?.error));
  if (!ticket || typeof ticket.uuid !== 'string') return null;
  const user = asRecord(ticket.user);
  const queue = asRecord(ticket.queue);
  return {
    id: typeof ticket.id === 'number' ? ticket.id : null,
    uuid: ticket.uuid,
    userId: typeof ticket.userId === 'number' ? ticket.userId : null,
    userName: typeof user?.name === 'string' ? user.name : '',
    queueName: typeof queue?.name === 'string' ? queue.name : '',
  };
}
