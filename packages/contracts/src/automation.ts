/** Constants of the automation entities (spec 3 §2–§3, issue 16); their schemas live beside them as they grow. */

/** Queue integration types (spec "Integrations page"). */
export const QUEUE_INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot'] as const;
export type QueueIntegrationType = (typeof QUEUE_INTEGRATION_TYPES)[number];

/** What choosing a chatbot option does (spec "Chatbot option": queueType; 'attendent' is the spec's spelling). */
export const CHATBOT_OPTION_TYPES = ['text', 'attendent', 'queue', 'integration', 'file'] as const;
export type ChatbotOptionType = (typeof CHATBOT_OPTION_TYPES)[number];

/** The router's rotation minutes offered by the queue dialog (`tempoRoteador`). */
export const ROUTER_MINUTES = [2, 5, 10, 15, 30, 45, 60] as const;

/** A prompt's voice: plain text, or one of the Brazilian Portuguese Azure neural voices (spec "AI prompts page"). */
export const PROMPT_TEXT_VOICE = 'texto';
export const PROMPT_NEURAL_VOICES = [
  'Francisca',
  'Antonio',
  'Brenda',
  'Donato',
  'Elza',
  'Fabio',
  'Giovanna',
  'Humberto',
  'Julio',
  'Leila',
  'Leticia',
  'Manuela',
  'Nicolau',
  'Valerio',
  'Yara',
] as const;
