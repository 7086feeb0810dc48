const two = (n: number) => String(n).padStart(2, '0');

/** Greeting by the hour (`{{ms}}`), in the product's default language. */
export function greetingByHour(now: Date): string {
  const h = now.getHours();
  return h < 12 ? 'Bom dia' : h < 18 ? 'Boa tarde' : 'Boa noite';
}

export interface VariableValues {
  contactName: string;
  userName?: string | null;
  queueName?: string | null;
  connectionName?: string | null;
  ticketId: number;
}

/**
 * Fills the message variables of spec 2 §9: {{firstName}}, {{name}}, {{userName}}, {{ms}}, {{protocol}},
 * {{date}}, {{hour}}, {{ticket_id}}, {{queue}}, {{connection}}. Unknown variables stay as written.
 */
export function fillVariables(template: string, v: VariableValues, now = new Date()): string {
  const date = `${two(now.getDate())}/${two(now.getMonth() + 1)}/${now.getFullYear()}`;
  const hour = `${two(now.getHours())}:${two(now.getMinutes())}:${two(now.getSeconds())}`;
  const values: Record<string, string> = {
    firstName: v.contactName.split(' ')[0] ?? '',
    name: v.contactName,
    userName: v.userName ?? '',
    ms: greetingByHour(now),
    protocol: `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}${v.ticketId}`,
    date,
    hour,
    ticket_id: String(v.ticketId),
    queue: v.queueName ?? '',
    connection: v.connectionName ?? '',
  };
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, key: string) => values[key] ?? all);
}
