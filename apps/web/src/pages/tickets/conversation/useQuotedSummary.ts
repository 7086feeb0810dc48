import { useTranslation } from 'react-i18next';
import type { Message } from '@balcao/contracts';
import { locationLink, parseVCard } from './messageRules';

type Quoted = NonNullable<Message['quotedMsg']>;

/** Short text of a quoted message: its body, or the kind of media it holds. */
export function useQuotedSummary() {
  const { t } = useTranslation();
  return (q: Pick<Quoted, 'body' | 'mediaType'>): string => {
    const body = q.body.trim();
    if (q.mediaType === 'chat') return body || t('conversation.pdfMedia.chat');
    const label = t(`conversation.pdfMedia.${q.mediaType}`);
    if (q.mediaType === 'contactMessage') return `${label} ${parseVCard(body).name}`.trim();
    if (q.mediaType === 'locationMessage') return `${label} ${locationLink(body) ?? ''}`.trim();
    return body ? `${label} ${body}` : label;
  };
}
