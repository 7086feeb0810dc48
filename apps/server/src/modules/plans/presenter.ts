import type { Plan } from '@balcao/contracts';
import type { plans } from '../../db/schema/index.js';

/** The one place that shapes a plan row for the API. */
export function presentPlan(row: typeof plans.$inferSelect): Plan {
  return {
    id: row.id,
    name: row.name,
    users: row.users,
    connections: row.connections,
    queues: row.queues,
    amount: row.amount,
    isPublic: row.isPublic,
    useWhatsapp: row.useWhatsapp,
    useFacebook: row.useFacebook,
    useInstagram: row.useInstagram,
    useCampaigns: row.useCampaigns,
    useSchedules: row.useSchedules,
    useInternalChat: row.useInternalChat,
    useExternalApi: row.useExternalApi,
    useKanban: row.useKanban,
    useOpenAi: row.useOpenAi,
    useIntegrations: row.useIntegrations,
  };
}
