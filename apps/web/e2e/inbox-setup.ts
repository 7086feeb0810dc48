import { expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { admin, uniqueEmail } from './helpers';
import { INBOX_API_URL } from './meta-env';

/**
 * A user of the inbox instance through its API (the admin for setup and checks). An API
 * login logs that user's pages out, so attendants log in here only before their UI login.
 */
export class InboxApi {
  private constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  /** Its own request context, so the same client serves beforeAll and the tests (dispose() at the end). */
  static async login(who: { email: string; password: string } = admin): Promise<InboxApi> {
    const request = await playwrightRequest.newContext();
    const res = await request.post(`${INBOX_API_URL}/auth/login`, { data: { email: who.email, password: who.password } });
    expect(res.status(), await res.text()).toBe(200);
    return new InboxApi(request, ((await res.json()) as { token: string }).token);
  }

  /** A call that must succeed; answers its JSON. */
  async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown): Promise<T> {
    const res = await this.raw(method, path, data);
    expect(res.ok(), `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`).toBe(true);
    return res.body as T;
  }

  /** Any answer, with its status. */
  async raw(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown): Promise<{ status: number; ok: () => boolean; body: unknown }> {
    const res = await this.request.fetch(`${INBOX_API_URL}${path}`, { method, data, headers: { Authorization: `Bearer ${this.token}` } });
    const text = await res.text();
    return { status: res.status(), ok: () => res.ok(), body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  /** The ticket with that status whose last message is `text` (undefined until the server has it). */
  async ticketByLastMessage(status: string, text: string): Promise<ApiTicket | undefined> {
    const { tickets } = await this.call<{ tickets: ApiTicket[] }>('GET', `/tickets?status=${status}&showAll=true`);
    return tickets.find((t) => t.lastMessage === text);
  }

  ticket(id: number): Promise<ApiTicket> {
    return this.call<ApiTicket>('GET', `/tickets/${id}`);
  }

  dispose(): Promise<void> {
    return this.request.dispose();
  }
}

/** The fields of `GET /tickets` rows the tests read. */
export interface ApiTicket {
  id: number;
  uuid: string;
  status: string;
  userId: number | null;
  queueId: number | null;
  lastMessage: string;
  unreadMessages: number;
}

export interface Attendant {
  id: number;
  name: string;
  email: string;
  password: string;
}

export interface InboxWorld {
  api: InboxApi;
  queueA: { id: number; name: string };
  queueB: { id: number; name: string };
  /** The farewell (complationMessage) of the Facebook connection of Page 1000001, whose only queue is A. */
  farewell: string;
  /** Profile user in queue A, and profile user in queue B. */
  attendant1: Attendant;
  attendant2: Attendant;
}

/**
 * Fresh queues A and B, the Facebook connection (any token works against the fake
 * Graph API: Pages 1000001 and 1000002) and two attendants. Everything is created
 * with the admin's token: an API login of an attendant would log their page out.
 */
export async function setUpInbox(): Promise<InboxWorld> {
  const api = await InboxApi.login();
  try {
    return await populate(api);
  } catch (err) {
    await api.dispose();
    throw err;
  }
}

async function populate(api: InboxApi): Promise<InboxWorld> {
  const stamp = `${Date.now() % 1e6}`;
  // Every test brings its own queues and attendants: lift the plan's limits of this instance.
  const me = await api.call<{ company: { plan: { id: number } } }>('GET', '/auth/me');
  await api.call('PUT', `/plans/${me.company.plan.id}`, { users: 10_000, queues: 10_000 });
  // Queue colours are unique in a company too.
  const color = () => `#${Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0')}`;
  const queueA = await api.call<{ id: number; name: string }>('POST', '/queue', { name: `Fila A ${stamp}`, color: color() });
  const queueB = await api.call<{ id: number; name: string }>('POST', '/queue', { name: `Fila B ${stamp}`, color: color() });

  const pages = await api.call<{ id: number; name: string; facebookPageId: string | null; isDefault: boolean }[]>('POST', '/facebook', {
    facebookUserId: '1',
    facebookUserToken: 'e2e-user-token-0123456789',
  });
  const page = pages.find((p) => p.facebookPageId === '1000001');
  if (!page) throw new Error('the fake Graph API did not offer Page 1000001');
  const farewell = `Até logo! ${stamp}`;
  await api.call('PUT', `/whatsapp/${page.id}`, {
    name: page.name,
    channel: 'facebook',
    isDefault: page.isDefault,
    complationMessage: farewell,
    queueIds: [queueA.id],
  });

  const attendant = async (label: string, queueId: number): Promise<Attendant> => {
    const email = uniqueEmail(label);
    const password = 'attendant-pass-1';
    const name = `${label === 'a1' ? 'Ana' : 'Bruno'} ${stamp}`;
    const user = await api.call<{ id: number }>('POST', '/users', { name, email, password, profile: 'user', queueIds: [queueId] });
    return { id: user.id, name, email, password };
  };
  return {
    api,
    queueA,
    queueB,
    farewell,
    attendant1: await attendant('a1', queueA.id),
    attendant2: await attendant('a2', queueB.id),
  };
}
