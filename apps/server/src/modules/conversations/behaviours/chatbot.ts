import { and, asc, eq, sql } from 'drizzle-orm';
import { chatbots, companySettings, contacts, fileListOptions, fileLists, queues, whatsappQueues } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { botStep, type BotChange, type BotLog } from '../commands/automation-bot.js';
import { markClosed } from '../commands/tickets.js';
import { preparedPerDb } from '../commands/prepared.js';
import { queueIntegrationOf } from '../../queue-integrations/queries.js';
import { relayToIntegration } from '../../queue-integrations/relay.js';
import { isWithinHours } from './hours.js';
import { sendQueuePosition } from './queue-position.js';
import { assignRandomAttendant, walletOwner } from './router.js';
import type { InboundContext } from './inbound.js';
import { sendConnectionMessage } from './send.js';
import { botWords, wordsOf, type BotWords } from './words.js';

/**
 * The queue chatbot (spec 3 §4, issue 16), for a pending ticket nobody attends: the
 * connection's greeting lists its queues as numbered options, the answer (its number or
 * its text) moves the ticket into the queue, whose greeting lists that queue's options,
 * and so on down the tree (`tickets.chatbot_id` is the option whose sub-options are on
 * screen; null is the queue's top level). '0' goes back one level, '#' back to the
 * start. A level with a single option does not ask: that option is chosen at once.
 * Too many wrong answers (`maxUseBotQueues`) or too long in the bot (`timeUseBotQueues`
 * minutes) leave the ticket waiting in its queue, bot finished.
 * Answers false when the bot has nothing to do with this ticket (the plain greeting runs).
 */
export async function runChatbot(ctx: AppContext, c: InboundContext): Promise<boolean> {
  const { ticket, connection } = c;
  if (ticket.status !== 'pending' || ticket.userId !== null || ticket.useIntegration || c.known?.hasQueues === false) return false;
  const menu = await connectionQueues(ctx, connection.id);
  if (menu.length === 0) return false;
  if (c.known ? c.known.botDisabled : await botDisabled(ctx, ticket.contactId)) return true;

  const bot = new Bot(ctx, c, menu, c.known ? wordsOf(c.known.botLanguage) : await botWords(ctx, ticket.companyId));
  if (c.found.created || c.found.reopened) return bot.start();
  if (ticket.botFinishedAt) return true;
  const timeUp = connection.timeUseBotQueues > 0 && ticket.botStartedAt && Date.now() - ticket.botStartedAt.getTime() > connection.timeUseBotQueues * 60_000;
  if (timeUp) return bot.finish();
  return bot.answer(c.body.trim());
}

type QueueRow = Pick<typeof queues.$inferSelect, 'id' | 'name' | 'greetingMessage' | 'outOfHoursMessage' | 'schedules'>;
type Option = typeof chatbots.$inferSelect;

/** Prepared: read for every customer message of a pending ticket. */
const connectionQueuesQuery = preparedPerDb((db) =>
  db
    .select({ id: queues.id, name: queues.name, greetingMessage: queues.greetingMessage, outOfHoursMessage: queues.outOfHoursMessage, schedules: queues.schedules })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(eq(whatsappQueues.whatsappId, sql.placeholder('whatsappId')))
    .orderBy(sql`${queues.orderQueue} ASC NULLS LAST`, asc(queues.name), asc(queues.id))
    .prepare('behaviours_connection_queues'),
);

async function connectionQueues(ctx: AppContext, whatsappId: number): Promise<QueueRow[]> {
  return connectionQueuesQuery(ctx.db).execute({ whatsappId });
}

async function botDisabled(ctx: AppContext, contactId: number): Promise<boolean> {
  const [row] = await ctx.db.select({ disableBot: contacts.disableBot }).from(contacts).where(eq(contacts.id, contactId));
  return !!row?.disableBot;
}

/** Lower case, no accents, no surrounding spaces or asterisks: how an answer and an option's text are compared. */
const normalize = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/^[\s*]+|[\s*.]+$/g, '')
    .toLowerCase();

/** The item the customer picked by number (1…n) or by its text. */
function pick<T extends { name: string }>(items: T[], answer: string): T | undefined {
  if (/^\d{1,3}$/.test(answer)) return items[Number(answer) - 1];
  const wanted = normalize(answer);
  return wanted ? items.find((i) => normalize(i.name) === wanted) : undefined;
}

/** The keys the customer sees under a deeper menu (docs/chatbots.md). */
export const BACK_KEY = '0';
export const START_KEY = '#';

function menuText(greeting: string, items: { name: string }[], canGoBack: boolean, words: BotWords): string {
  const lines = items.map((item, i) => `*${i + 1}* - ${item.name}`);
  if (canGoBack) lines.push(`*${BACK_KEY}* - ${words.back}`, `*${START_KEY}* - ${words.mainMenu}`);
  return [greeting.trim(), lines.join('\n')].filter(Boolean).join('\n\n');
}

class Bot {
  private ticket: TicketRow;
  /** Options chosen for being alone on their level while handling this message: a queue option leading back round is then asked, not looped. */
  private readonly autoChosen = new Set<number>();
  constructor(
    private readonly ctx: AppContext,
    private readonly c: InboundContext,
    private readonly queues: QueueRow[],
    private readonly words: BotWords,
  ) {
    this.ticket = c.ticket;
  }

  private get connection() {
    return this.c.connection;
  }

  private async step(change: BotChange, logs: BotLog[] = []): Promise<boolean> {
    const done = await botStep(this.ctx, this.ticket, change, logs);
    if (done) this.ticket = { ...this.ticket, ...change } as TicketRow;
    return done;
  }

  private send(text: string, media?: string | null) {
    return text.trim() || media ? sendConnectionMessage(this.ctx, this.ticket.id, text, media) : Promise.resolve();
  }

  /** A new (or reopened) ticket: its customer's attendant (DirectTicketsToWallets), else the queue list, or straight into the only queue. */
  async start(): Promise<boolean> {
    const wallet = this.c.found.created ? await walletOwner(this.ctx, this.ticket) : undefined;
    if (wallet) {
      const queueId = wallet.queueId ?? this.ticket.queueId;
      // No menu: the attendant they know answers them (unless at capacity: then the menu runs).
      if (await this.step({ userId: wallet.userId, queueId, botFinishedAt: new Date() }, [{ type: 'receivedTransfer', queueId, userId: wallet.userId }])) return true;
    }
    if (!(await this.step({ chatbotId: null, botAttempts: 0, botStartedAt: new Date(), botFinishedAt: null }))) return true;
    const sole = this.queues.length === 1 ? this.queues[0]! : undefined;
    const current = this.queues.find((q) => q.id === this.ticket.queueId) ?? sole;
    if (!current) {
      await this.send(this.menu(this.connection.greetingMessage, this.queues, false));
      return true;
    }
    if (sole && (await sendGreetingOneQueue(this.ctx, this.ticket.companyId))) await this.send(this.connection.greetingMessage, this.connection.greetingMediaAttachment);
    await this.enterQueue(current);
    return true;
  }

  /** Stops leading the customer: the ticket waits in its queue (told its place with sendQueuePosition; given to a random online attendant with userRandom). */
  async finish(logs: BotLog[] = []): Promise<boolean> {
    if (await this.step({ botFinishedAt: new Date(), chatbotId: null }, logs)) {
      await sendQueuePosition(this.ctx, this.ticket);
      await assignRandomAttendant(this.ctx, this.ticket);
    }
    return true;
  }

  async answer(answer: string): Promise<boolean> {
    if (this.ticket.queueId === null) {
      const queue = pick(this.queues, answer);
      if (!queue) return this.wrong();
      if (await this.step({ queueId: queue.id, chatbotId: null, botAttempts: 0 }, [{ type: 'queue', queueId: queue.id }])) await this.enterQueue(queue);
      return true;
    }
    const here = this.chatbotLevel();
    if (answer === START_KEY) return this.backToStart();
    if (answer === BACK_KEY) return this.back((await here).current);
    const level = await here;
    const option = pick(level.options, answer);
    return option ? this.choose(option) : this.wrong();
  }

  /** The option on screen (none at a queue's top level) and the options it lists. */
  private async chatbotLevel(): Promise<{ current: Option | undefined; options: Option[] }> {
    const [found] = this.ticket.chatbotId ? await this.ctx.db.select().from(chatbots).where(eq(chatbots.id, this.ticket.chatbotId)) : [];
    // An option of another queue (the ticket was redirected or transferred meanwhile): that queue's top level.
    const current = found?.queueId === this.ticket.queueId ? found : undefined;
    const parentId = current?.id ?? null;
    const options = await this.ctx.db
      .select()
      .from(chatbots)
      .where(and(eq(chatbots.queueId, this.ticket.queueId!), parentId ? eq(chatbots.parentId, parentId) : sql`${chatbots.parentId} IS NULL`))
      .orderBy(asc(chatbots.position), asc(chatbots.id));
    return { current, options };
  }

  private menu(greeting: string, items: { name: string }[], canGoBack: boolean): string {
    return menuText(greeting, items, canGoBack, this.words);
  }

  private async resend(): Promise<void> {
    if (this.ticket.queueId === null) return this.send(this.menu(this.connection.greetingMessage, this.queues, false));
    const queue = this.queues.find((q) => q.id === this.ticket.queueId);
    const { current, options } = await this.chatbotLevel();
    await this.send(this.menu(current ? current.greetingMessage : (queue?.greetingMessage ?? ''), options, await this.canGoBack()));
  }

  /** A level's message and its options; a level with a single option does not ask: its message, then that option at once. */
  private async offer(message: string, options: Option[]): Promise<void> {
    const only = options.length === 1 ? options[0]! : undefined;
    if (!only || this.autoChosen.has(only.id)) return this.send(this.menu(message, options, await this.canGoBack()));
    this.autoChosen.add(only.id);
    await this.send(message);
    await this.choose(only);
  }

  /** The ticket's queue's options as (id, parentId): the shape of its tree. */
  private queueTree(): Promise<{ id: number; parentId: number | null }[]> {
    return this.ctx.db.select({ id: chatbots.id, parentId: chatbots.parentId }).from(chatbots).where(eq(chatbots.queueId, this.ticket.queueId!));
  }

  /**
   * Whether '0' and '#' lead anywhere else, so the menu shows them: another queue to pick, the connection's queue
   * to return to, or a level above this one that offers a choice (levels passed through for their single option do not).
   */
  private async canGoBack(): Promise<boolean> {
    if (this.queues.length > 1 || this.ticket.queueId !== this.queues[0]?.id) return true;
    if (this.ticket.chatbotId === null) return false;
    const tree = await this.queueTree();
    const choice = (parentId: number | null) => tree.filter((o) => o.parentId === parentId).length > 1;
    for (let node = tree.find((o) => o.id === this.ticket.chatbotId); node; node = tree.find((o) => o.id === node!.parentId)) {
      if (choice(node.parentId)) return true;
    }
    return false;
  }

  private async wrong(): Promise<boolean> {
    const attempts = this.ticket.botAttempts + 1;
    if (attempts >= this.connection.maxUseBotQueues) return this.finish();
    if (await this.step({ botAttempts: attempts })) await this.resend();
    return true;
  }

  /** One level up, past the levels passed through for their single option (going back to one would only come down again). */
  private async back(current: Option | undefined): Promise<boolean> {
    if (!current) return this.backToStart();
    const tree = await this.queueTree();
    const alone = (parentId: number | null) => tree.filter((o) => o.parentId === parentId).length === 1;
    let target = current.parentId;
    while (target !== null && alone(target)) target = tree.find((o) => o.id === target)?.parentId ?? null;
    if (target === null && alone(null)) return this.backToStart();
    if (await this.step({ chatbotId: target, botAttempts: 0 })) await this.resend();
    return true;
  }

  /** The queue list; with a single queue, that queue from its greeting on (its single options chosen again). */
  private async backToStart(): Promise<boolean> {
    const sole = this.queues.length === 1 ? this.queues[0]! : undefined;
    const change: BotChange = { queueId: sole?.id ?? null, chatbotId: null, botAttempts: 0 };
    if (!(await this.step(change))) return true;
    if (sole) await this.enterQueue(sole);
    else await this.resend();
    return true;
  }

  /** The queue's greeting and its top-level options; out of its hours (scheduleType queue) its outOfHoursMessage, bot finished. */
  private async enterQueue(queue: QueueRow): Promise<void> {
    if ((await scheduleType(this.ctx, this.ticket.companyId)) === 'queue' && !isWithinHours(queue.schedules, new Date())) {
      await this.send(queue.outOfHoursMessage ?? '');
      await this.finish();
      return;
    }
    if (await this.queueIntegration(queue)) return;
    const { options } = await this.chatbotLevel();
    if (options.length > 0) return this.offer(queue.greetingMessage ?? '', options);
    await this.send(queue.greetingMessage ?? '');
    await this.finish();
  }

  /**
   * A queue with an Integration (plan `useIntegrations`) does not run its options: after its greeting the
   * integration holds the ticket and answers the message that brought the customer here. Not after an
   * integration of this ticket gave up (`integration_stopped_at`): the humans of the queue have it.
   */
  private async queueIntegration(queue: QueueRow): Promise<boolean> {
    if (this.ticket.integrationStoppedAt) return false;
    const integrationId = await queueIntegrationOf(this.ctx.db, this.ticket.companyId, queue.id);
    if (!integrationId) return false;
    await this.send(queue.greetingMessage ?? '');
    if ((await this.handOver(integrationId)) && this.c.messageId) {
      await relayToIntegration(this.ctx, { ticketId: this.ticket.id, messageId: this.c.messageId, integrationId, attempt: 1 });
    }
    return true;
  }

  /** The integration takes the conversation (inbound step 4, integration.ts, relays the customer's messages to it); logged `chatBot`. */
  private handOver(integrationId: number | null): Promise<boolean> {
    const log = { type: 'chatBot' as const, queueId: this.ticket.queueId };
    return this.step({ useIntegration: true, integrationId, botFinishedAt: new Date(), chatbotId: null }, [log]);
  }

  /** The option's message, then what its type does; `closeTicket` closes after the message. */
  private async choose(option: Option): Promise<boolean> {
    const log = { type: 'chatBot' as const, queueId: this.ticket.queueId };
    const children = await this.ctx.db.select().from(chatbots).where(eq(chatbots.parentId, option.id)).orderBy(asc(chatbots.position), asc(chatbots.id));
    switch (option.queueType) {
      case 'queue': {
        const queue = await this.targetQueue(option.optQueueId);
        if (!queue) return this.finish();
        await this.send(option.greetingMessage);
        if (await this.step({ queueId: queue.id, chatbotId: null, botAttempts: 0 }, [log, { type: 'queue', queueId: queue.id }])) await this.enterQueue(queue);
        break;
      }
      case 'attendent':
        await this.send(option.greetingMessage);
        // An attendant at capacity: the ticket waits in the queue instead.
        if (!(await this.step({ userId: option.optUserId, status: 'open', botFinishedAt: new Date(), chatbotId: null }, [{ ...log, userId: option.optUserId }]))) await this.finish([log]);
        break;
      case 'integration':
        await this.send(option.greetingMessage);
        await this.handOver(option.optIntegrationId);
        break;
      case 'file':
        await this.send(option.greetingMessage);
        await this.sendFiles(option.optFileId);
        await this.leaf(option, log);
        break;
      case 'text':
        if (children.length > 0) {
          if (await this.step({ chatbotId: option.id, botAttempts: 0 }, [log])) await this.offer(option.greetingMessage, children);
        } else {
          await this.send(option.greetingMessage);
          await this.leaf(option, log);
        }
        break;
    }
    if (option.closeTicket) await markClosed(this.ctx, this.ticket.id);
    return true;
  }

  /** The end of the walk: the ticket waits in its queue, unless the option closes it right after. */
  private async leaf(option: Option, log: BotLog): Promise<void> {
    if (option.closeTicket) await this.step({ botFinishedAt: new Date(), chatbotId: null }, [log]);
    else await this.finish([log]);
  }

  private async targetQueue(id: number | null): Promise<QueueRow | undefined> {
    if (!id) return undefined;
    const [row] = await this.ctx.db
      .select({ id: queues.id, name: queues.name, greetingMessage: queues.greetingMessage, outOfHoursMessage: queues.outOfHoursMessage, schedules: queues.schedules })
      .from(queues)
      .where(and(eq(queues.id, id), eq(queues.companyId, this.ticket.companyId)));
    return row;
  }

  /** The file list's message, then each of its uploaded files (`files_options.path`) with its name as caption. */
  private async sendFiles(fileId: number | null): Promise<void> {
    if (!fileId) return;
    const [list] = await this.ctx.db.select().from(fileLists).where(and(eq(fileLists.id, fileId), eq(fileLists.companyId, this.ticket.companyId)));
    if (!list) return;
    await this.send(list.message);
    const files = await this.ctx.db.select().from(fileListOptions).where(eq(fileListOptions.fileId, list.id)).orderBy(asc(fileListOptions.id));
    for (const file of files) if (file.path) await this.send(file.name, file.path);
  }
}

async function settingsOf(ctx: AppContext, companyId: number) {
  const [row] = await ctx.db
    .select({ scheduleType: companySettings.scheduleType, sendGreetingMessageOneQueues: companySettings.sendGreetingMessageOneQueues })
    .from(companySettings)
    .where(eq(companySettings.companyId, companyId));
  return row;
}

const scheduleType = async (ctx: AppContext, companyId: number) => (await settingsOf(ctx, companyId))?.scheduleType;
const sendGreetingOneQueue = async (ctx: AppContext, companyId: number) => (await settingsOf(ctx, companyId))?.sendGreetingMessageOneQueues !== 'disabled';
