import type { Prompt, TicketEventPayload, TicketLog } from '@balcao/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages, plans, prompts, ticketLogs, tickets } from '../../db/schema/index.js';
import { bearer, collect, createCompanyWithAdmin, createTestApp, login, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { listen, openSocket } from '../../../test/roles.js';
import { createQueue } from '../../../test/tickets.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { FakeOpenAi } from '../../../test/fakes/openai-server.js';
import { FakeAzureTts, OGG_AUDIO } from '../../../test/fakes/azure-tts-server.js';
import type { Connection } from '../../channels/adapter.js';
import type { InboundMessage } from '../../channels/inbound-event.js';
import { processInbound } from '../conversations/inbound.js';
import { HAND_OVER_MARKER } from '../conversations/behaviours/prompt.js';

const TIMEOUT_MS = 1500;
let t: TestApp;
let graph: FakeGraph;
let openai: FakeOpenAi;
let tts: FakeAzureTts;
let companyId: number;
let admin: LoggedIn;
let seq = 0;
let number = 7_100_000;

async function customerSays(conn: Connection, from: string, body: string, audio?: Buffer) {
  seq += 1;
  const event: InboundMessage = {
    kind: 'message',
    wid: `m_prompt_${seq}`,
    fromMe: false,
    body,
    mediaType: audio ? 'audio' : 'chat',
    loadMedia: audio ? async () => ({ data: audio, mimetype: 'audio/ogg; codecs=opus', fileName: 'voz.ogg' }) : undefined,
    at: new Date(),
    chat: { number: from, name: 'Maria Silva', remoteJid: from, isGroup: false },
    raw: {},
  };
  const result = await processInbound(t.app.ctx, conn, event);
  if (result.outcome !== 'stored') throw new Error(`not stored: ${result.outcome}`);
  return result.ticketId;
}

const conversationOf = (ticketId: number) => t.db.select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(asc(messages.id));
const outgoing = async (ticketId: number) => (await conversationOf(ticketId)).filter((m) => m.fromMe);
const ticketOf = async (id: number) => (await t.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
const logsOf = (ticketId: number) => t.db.select().from(ticketLogs).where(eq(ticketLogs.ticketId, ticketId)).orderBy(asc(ticketLogs.id));
const waitOutgoing = (ticketId: number, n: number) => eventually(async () => ((await outgoing(ticketId)).length >= n ? outgoing(ticketId) : undefined));
const handedOver = (ticketId: number) => eventually(async () => ((await ticketOf(ticketId)).promptHandedOverAt ? ticketOf(ticketId) : undefined), 8000);
const nextNumber = () => String((number += 1));

async function newPrompt(over: Record<string, unknown> = {}) {
  const queue = await createQueue(t.db, companyId, 'Atendimento IA');
  const res = await t.app.inject({
    method: 'POST',
    url: '/prompt',
    headers: bearer(admin.token),
    payload: { name: `Assistente ${seq++}`, prompt: 'Você é a assistente da Loja Balcão.', apiKey: 'sk-live-prompt-key', queueId: queue.id, ...over },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return { prompt: res.json<Prompt>(), queueId: queue.id };
}

beforeAll(async () => {
  [graph, openai, tts] = await Promise.all([FakeGraph.start(), FakeOpenAi.start(), FakeAzureTts.start()]);
  t = await createTestApp({ ...metaEnv(graph.url), OPENAI_BASE_URL: openai.url, AZURE_SPEECH_URL: tts.url, AI_TIMEOUT_MS: String(TIMEOUT_MS), OPENAI_MODEL: 'gpt-test' });
  const created = await createCompanyWithAdmin(t.db);
  companyId = created.company.id;
  admin = await login(t.app, created.email, created.password);
});

beforeEach(() => {
  openai.reply = (req) => `Resposta ${req.messages.length}`;
  openai.failWith = undefined;
  openai.delayMs = 0;
  tts.failWith = undefined;
});

afterAll(async () => {
  await t.close();
  await Promise.all([graph.close(), openai.close(), tts.close()]);
});

describe('AI prompt step of the inbound pipeline', () => {
  it("answers a ticket in the prompt's queue with the prompt as system message and the last maxMessages messages as context", async () => {
    const { queueId } = await newPrompt({ maxMessages: 3, maxTokens: 120, temperature: 0.3 });
    const conn = await createConnection(t.db, companyId, { greetingMessage: 'Olá!' }, [queueId]);
    const from = nextNumber();
    const before = openai.chats().length;
    const ticketId = await customerSays(conn, from, 'Oi, vocês abrem sábado?');
    await waitOutgoing(ticketId, 1);
    await customerSays(conn, from, 'E domingo?');
    await waitOutgoing(ticketId, 2);
    await customerSays(conn, from, 'Qual o endereço?');
    const answers = await waitOutgoing(ticketId, 3);

    const chats = openai.chats().slice(before);
    expect(chats).toHaveLength(3);
    const last = chats[2]!;
    expect(last.authorization).toBe('Bearer sk-live-prompt-key');
    expect(last.json).toMatchObject({ model: 'gpt-test', max_tokens: 120, temperature: 0.3 });
    expect(last.json!.messages[0]!.role).toBe('system');
    expect(last.json!.messages[0]!.content).toContain('Você é a assistente da Loja Balcão.');
    expect(last.json!.messages.slice(1)).toEqual([
      { role: 'user', content: 'E domingo?' },
      { role: 'assistant', content: answers[1]!.body },
      { role: 'user', content: 'Qual o endereço?' },
    ]);
    // The greeting gave way to the model; the answers went through the outbox to the channel.
    expect(answers.map((m) => m.body)).toEqual(['Resposta 2', 'Resposta 4', 'Resposta 4']);
    await eventually(async () => (await outgoing(ticketId)).every((m) => m.sendStatus === 'sent'));
    const ticket = await ticketOf(ticketId);
    expect(ticket).toMatchObject({ status: 'pending', userId: null, queueId, promptHandedOverAt: null });
  });

  it("answers a connection's prompt, and with a neural voice also sends the answer as audio synthesised by Azure", async () => {
    const { prompt } = await newPrompt({ voice: 'Francisca', voiceKey: 'azure-secret-key', voiceRegion: 'brazilsouth' });
    openai.reply = () => 'Abrimos às 9h & fechamos às 18h.';
    const conn = await createConnection(t.db, companyId, { promptId: prompt.id });
    const ticketId = await customerSays(conn, nextNumber(), 'Que horas abre?');
    const [text, audio] = await waitOutgoing(ticketId, 2);
    expect(text).toMatchObject({ body: 'Abrimos às 9h & fechamos às 18h.', mediaType: 'chat' });
    expect(audio).toMatchObject({ mediaType: 'audio' });
    expect(await readFile(t.app.ctx.storage.pathOf(companyId, audio!.mediaUrl!))).toEqual(OGG_AUDIO);

    const request = tts.requests.at(-1)!;
    expect(request.path).toBe('/cognitiveservices/v1');
    expect(request.headers['ocp-apim-subscription-key']).toBe('azure-secret-key');
    expect(request.headers['content-type']).toBe('application/ssml+xml');
    expect(request.ssml).toContain("name='pt-BR-FranciscaNeural'");
    expect(request.ssml).toContain('Abrimos às 9h &amp; fechamos às 18h.');
    await eventually(async () => (await outgoing(ticketId)).every((m) => m.sendStatus === 'sent'));
  });

  it('keeps the text answer when the voice synthesis fails', async () => {
    const { prompt } = await newPrompt({ voice: 'Antonio', voiceKey: 'azure-secret-key', voiceRegion: 'brazilsouth' });
    tts.failWith = 401;
    const conn = await createConnection(t.db, companyId, { promptId: prompt.id });
    const ticketId = await customerSays(conn, nextNumber(), 'Oi');
    await waitOutgoing(ticketId, 1);
    await sleep(300);
    expect((await outgoing(ticketId)).map((m) => m.mediaType)).toEqual(['chat']);
    expect((await ticketOf(ticketId)).promptHandedOverAt).toBeNull();
  });

  it("transcribes a customer's audio first and answers its text", async () => {
    const { prompt } = await newPrompt();
    openai.transcript = 'quanto custa o plano anual';
    const conn = await createConnection(t.db, companyId, { promptId: prompt.id });
    const voice = Buffer.concat([Buffer.from('OggS'), Buffer.from('voz-da-cliente')]);
    const before = openai.chats().length;
    const ticketId = await customerSays(conn, nextNumber(), '', voice);
    await waitOutgoing(ticketId, 1);
    const transcription = openai.transcriptions().at(-1)!;
    expect(transcription.authorization).toBe('Bearer sk-live-prompt-key');
    expect(transcription.raw.includes(voice)).toBe(true);
    expect(transcription.raw.toString('latin1')).toContain('whisper-1');
    const chat = openai.chats()[before]!;
    expect(chat.json!.messages.at(-1)).toEqual({ role: 'user', content: 'quanto custa o plano anual' });
    // The customer's audio is kept, with the transcript as its text for the attendants.
    expect((await conversationOf(ticketId))[0]).toMatchObject({ fromMe: false, mediaType: 'audio', body: 'quanto custa o plano anual' });
  });

  it('hands the ticket to the queue when the customer asks for a person, without asking the model, and stays out of it', async () => {
    const { prompt, queueId } = await newPrompt();
    const conn = await createConnection(t.db, companyId, { promptId: prompt.id });
    const from = nextNumber();
    const before = openai.chats().length;
    const socket = await openSocket(await listen(t), admin);
    const updates = collect<TicketEventPayload>(socket, `company-${companyId}-ticket`);
    const ticketId = await customerSays(conn, from, 'Quero falar com um atendente, por favor');
    const ticket = await handedOver(ticketId);
    expect(ticket).toMatchObject({ status: 'pending', userId: null, queueId });
    const log = await t.app.inject({ method: 'GET', url: `/tickets-log/${ticketId}`, headers: bearer(admin.token) });
    expect(log.json<TicketLog[]>().map((l) => [l.type, l.queue?.id])).toContainEqual(['queue', queueId]);
    // The attendants of the queue see it arrive there, live.
    await eventually(async () => updates.some((u) => u.action === 'update' && u.ticket.id === ticketId && u.ticket.queueId === queueId));
    socket.close();
    await customerSays(conn, from, 'Alô?');
    await sleep(300);
    expect(openai.chats().length).toBe(before);
    expect(await outgoing(ticketId)).toEqual([]);
    expect((await conversationOf(ticketId)).map((m) => m.body)).toEqual(['Quero falar com um atendente, por favor', 'Alô?']);
  });

  it('hands over when the model answers the hand-over marker', async () => {
    const { prompt, queueId } = await newPrompt();
    openai.reply = () => HAND_OVER_MARKER;
    const conn = await createConnection(t.db, companyId, { promptId: prompt.id });
    const ticketId = await customerSays(conn, nextNumber(), 'Preciso resolver um problema com meu pedido');
    expect(await handedOver(ticketId)).toMatchObject({ status: 'pending', queueId });
    expect(await outgoing(ticketId)).toEqual([]);
  });

  it('a failing remote never loses the message: the ticket falls back to the queue with a log entry', async () => {
    const { prompt, queueId } = await newPrompt();
    openai.failWith = 500;
    const conn = await createConnection(t.db, companyId, { promptId: prompt.id });
    const ticketId = await customerSays(conn, nextNumber(), 'Oi, tudo bem?');
    expect(await handedOver(ticketId)).toMatchObject({ status: 'pending', queueId, userId: null });
    expect((await conversationOf(ticketId)).map((m) => [m.fromMe, m.body])).toEqual([[false, 'Oi, tudo bem?']]);
    expect((await logsOf(ticketId)).map((l) => l.type)).toContain('queue');
  });

  it('a slow remote times out after the bound and falls back to the queue', async () => {
    const { prompt, queueId } = await newPrompt();
    openai.delayMs = TIMEOUT_MS * 3;
    const conn = await createConnection(t.db, companyId, { promptId: prompt.id });
    const started = Date.now();
    const ticketId = await customerSays(conn, nextNumber(), 'Oi?');
    expect(await handedOver(ticketId)).toMatchObject({ status: 'pending', queueId });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 3);
    expect(await outgoing(ticketId)).toEqual([]);
  });

  it("leaves tickets alone without the plan's useOpenAi, and those an attendant took", async () => {
    const { prompt, queueId } = await newPrompt();
    const before = openai.chats().length;
    const [plan] = await t.db.insert(plans).values({ name: 'Sem IA runtime', users: 5, connections: 5, queues: 5, useOpenAi: true }).returning();
    const other = await createCompanyWithAdmin(t.db, { planId: plan!.id });
    // The other company's connection naming this prompt is refused by the API; even written to the database, the prompt is looked up in the ticket's company.
    const foreign = await createConnection(t.db, other.company.id, { greetingMessage: 'Olá!', promptId: prompt.id });
    const foreignTicket = await customerSays(foreign, nextNumber(), 'Oi');
    expect((await waitOutgoing(foreignTicket, 1)).map((m) => m.body)).toEqual(['Olá!']);

    await t.db.update(plans).set({ useOpenAi: false }).where(eq(plans.id, plan!.id));
    const { company } = other;
    const theirQueue = await createQueue(t.db, company.id, 'Deles');
    const theirs = await createConnection(t.db, company.id, { greetingMessage: 'Olá!' }, [theirQueue.id]);
    // A prompt of a company whose plan no longer has AI (left from a plan change).
    await t.db.insert(prompts).values({ companyId: company.id, name: 'Antigo', prompt: 'x', apiKey: 'v1.a.b.c', queueId: theirQueue.id });
    const noAi = await customerSays(theirs, nextNumber(), 'Oi');
    expect((await waitOutgoing(noAi, 1)).map((m) => m.body)).toEqual(['Olá!']);

    const conn = await createConnection(t.db, companyId, { promptId: prompt.id });
    const from = nextNumber();
    const taken = await customerSays(conn, from, 'Oi');
    await waitOutgoing(taken, 1);
    await t.db.update(tickets).set({ status: 'open', userId: admin.user.id, queueId }).where(and(eq(tickets.id, taken), eq(tickets.companyId, companyId)));
    await customerSays(conn, from, 'Continuando');
    await sleep(300);
    expect(openai.chats().length).toBe(before + 1);
  });
});
