import { useUser } from '../../../api/session';
import { useQueues } from '../../../api/queues';

export interface QueueOption {
  id: number;
  name: string;
  color: string;
}

/**
 * The queues the inbox offers (queue filter, new ticket, accept): the user's own;
 * an admin who belongs to none is offered the company's queues.
 */
export function useQueueOptions(): QueueOption[] {
  const user = useUser();
  const fallback = user.queues.length === 0 && user.profile === 'admin';
  const company = useQueues(fallback);
  return fallback ? (company.data ?? []) : user.queues;
}
