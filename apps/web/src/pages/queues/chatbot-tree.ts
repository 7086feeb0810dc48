import type { ChatbotOption, ChatbotOptionInput, ChatbotOptionType } from '@balcao/contracts';

/** An option as the queue dialog edits it; `key` tells rows apart before the server gives them an id. */
export interface EditorOption {
  key: string;
  id?: number;
  name: string;
  greetingMessage: string;
  queueType: ChatbotOptionType;
  closeTicket: boolean;
  optQueueId: number | null;
  optUserId: number | null;
  optIntegrationId: number | null;
  optFileId: number | null;
  options: EditorOption[];
}

/** An option's place: indexes from the top level down. */
export type OptionPath = number[];

let seq = 0;
const newKey = () => `new-${(seq += 1)}`;

export const fromApi = (options: ChatbotOption[]): EditorOption[] =>
  options.map((o) => ({
    key: `id-${o.id}`,
    id: o.id,
    name: o.name,
    greetingMessage: o.greetingMessage,
    queueType: o.queueType,
    closeTicket: o.closeTicket,
    optQueueId: o.optQueueId,
    optUserId: o.optUserId,
    optIntegrationId: o.optIntegrationId,
    optFileId: o.optFileId,
    options: fromApi(o.options),
  }));

export const toBody = (options: EditorOption[]): ChatbotOptionInput[] =>
  options.map(({ key: _key, options: children, ...rest }) => ({ ...rest, options: toBody(children) }));

export const blankOption = (name = ''): EditorOption => ({
  key: newKey(),
  name,
  greetingMessage: '',
  queueType: 'text',
  closeTicket: false,
  optQueueId: null,
  optUserId: null,
  optIntegrationId: null,
  optFileId: null,
  options: [],
});

export function optionAt(options: EditorOption[], path: OptionPath): EditorOption | undefined {
  let level = options;
  let found: EditorOption | undefined;
  for (const i of path) {
    found = level[i];
    if (!found) return undefined;
    level = found.options;
  }
  return found;
}

/** A copy of the tree with the option at `path` replaced by `change(option)` (or removed when it answers null). */
export function updateAt(options: EditorOption[], path: OptionPath, change: (o: EditorOption) => EditorOption | null): EditorOption[] {
  const [head, ...rest] = path;
  if (head === undefined) return options;
  return options.flatMap((o, i) => {
    if (i !== head) return [o];
    if (rest.length > 0) return [{ ...o, options: updateAt(o.options, rest, change) }];
    const next = change(o);
    return next ? [next] : [];
  });
}

/** The rows of the tree in reading order, with their depth and number ("1.2.1"). */
export function flatRows(options: EditorOption[], path: OptionPath = []): { option: EditorOption; path: OptionPath; label: string }[] {
  return options.flatMap((option, i) => {
    const here = [...path, i];
    return [{ option, path: here, label: here.map((n) => n + 1).join('.') }, ...flatRows(option.options, here)];
  });
}

export type OptionProblem = 'nameShort' | 'messageRequired' | 'targetRequired';

/** The first option the server would refuse, and why (the same rules as the contracts). */
export function firstProblem(options: EditorOption[]): { path: OptionPath; problem: OptionProblem } | undefined {
  for (const { option, path } of flatRows(options)) {
    if (option.name.trim().length < 4) return { path, problem: 'nameShort' };
    if (option.options.length > 0 && !option.greetingMessage.trim()) return { path, problem: 'messageRequired' };
    const target = { text: 1, queue: option.optQueueId, attendent: option.optUserId, integration: option.optIntegrationId, file: option.optFileId }[option.queueType];
    if (!target) return { path, problem: 'targetRequired' };
  }
  return undefined;
}
