import Avatar from '@mui/material/Avatar';
import type { QueueIntegrationType } from '@balcao/contracts';

/** Each type's mark: initials on a colour dark enough for white text (AA). */
const MARKS: Record<QueueIntegrationType, { text: string; color: string }> = {
  dialogflow: { text: 'DF', color: '#B34700' },
  n8n: { text: 'n8n', color: '#B0184F' },
  webhook: { text: 'WH', color: '#37474F' },
  typebot: { text: 'TB', color: '#1A56B8' },
};

export function IntegrationLogo({ type, label }: { type: QueueIntegrationType; label: string }) {
  const mark = MARKS[type];
  return (
    <Avatar variant="rounded" aria-label={label} title={label} data-testid={`integration-logo-${type}`} sx={{ bgcolor: mark.color, color: '#fff', width: 36, height: 36, fontSize: 13, fontWeight: 700 }}>
      {mark.text}
    </Avatar>
  );
}
