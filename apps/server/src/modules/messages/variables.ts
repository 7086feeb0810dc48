const two = (n: number) => String(n).padStart(2, '0');

/** What `{{ms}}` says in the morning, the afternoon and the evening. */
export type DayGreetings = readonly [string, string, string];

/** `{{ms}}` in the product's default language. */
export const DEFAULT_DAY_GREETINGS: DayGreetings = ['Bom dia', 'Boa tarde', 'Boa noite'];

/** Greeting by the hour (`{{ms}}`), in the product's default language unless other words are given. */
export function greetingByHour(now: Date, words = DEFAULT_DAY_GREETINGS): string {
  const h = now.getHours();
  return h < 12 ? words[0] : h < 18 ? words[1] : words[2];
}

export interface VariableValues {
  contactName: string;
  userName?: string | null;
  queueName?: string | null;
  connectionName?: string | null;
  ticketId: number;
  /** `{{ms}}` in another language (the bot's messages follow the company's `botLanguage`). */
  dayGreetings?: DayGreetings;
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
    ms: greetingByHour(now, v.dayGreetings),
    protocol: `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}${v.ticketId}`,
    date,
    hour,
    ticket_id: String(v.ticketId),
    queue: v.queueName ?? '',
    connection: v.connectionName ?? '',
  };
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, key: string) => values[key] ?? all);
}
