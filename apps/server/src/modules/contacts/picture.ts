import { and, eq } from 'drizzle-orm';
import http from 'node:http';
import https from 'node:https';
import { alias } from 'drizzle-orm/pg-core';
import type PgBoss from 'pg-boss';
import type { Connection } from '../../channels/adapter.js';
import { contacts, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { randomFileName, removeStoredImage, sniffImage } from '../../http/uploads.js';
import type { ContactRow } from './presenter.js';
import { loadContact } from './queries.js';

/**
 * Contact pictures: the channel's CDN links expire and a credentialed browser request
 * cannot read them, so each picture is downloaded once and answered from our own
 * `/public/company{id}/contacts/…` URL. A new link from the channel is fetched again,
 * at most once a day per contact (a failed download waits a day too).
 */
export const CONTACT_PICTURE_JOB = 'contact-picture';
export const PICTURE_REFRESH_MS = 24 * 3600 * 1000;
const PICTURE_MAX_BYTES = 5 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 5;

interface PictureJob {
  companyId: number;
  contactId: number;
  whatsappId: number;
  /** The link the channel handed over; without one the job asks the channel for the current link. */
  url: string | null;
}

const contactsFolder = (companyId: number) => `company${companyId}/contacts`;
const ownUrlPrefix = (ctx: AppContext, companyId: number) => `${ctx.config.apiUrl}/public/company${companyId}/contacts/`;
const isHttp = (url: string) => /^https?:\/\//.test(url);

/**
 * Called where a channel hands over a contact (and the picture link it came with, if any):
 * schedules a download when the link is not the one our copy came from, or asks the channel
 * for the current link when our copy is a day old; never more than once a day per contact.
 */
export function requestContactPicture(ctx: AppContext, connection: Connection, contact: ContactRow, handedOver?: string | null): void {
  const stored = contact.profilePicUrl;
  const link = handedOver ?? (stored && isHttp(stored) && !stored.startsWith(ownUrlPrefix(ctx, contact.companyId)) ? stored : null);
  if (link && (link === contact.pictureSourceUrl || !isHttp(link))) return;
  if (contact.pictureFetchedAt && Date.now() - contact.pictureFetchedAt.getTime() < PICTURE_REFRESH_MS) return;
  let busy = asking.get(ctx);
  if (!busy) asking.set(ctx, (busy = new Set()));
  if (busy.has(contact.id)) return;
  busy.add(contact.id);
  const job: PictureJob = { companyId: contact.companyId, contactId: contact.id, whatsappId: connection.id, url: link };
  const boss = ctx.boss;
  ctx.background.run(boss ? 'contact picture job' : 'contact picture', async () => {
    try {
      if (boss) await boss.send(CONTACT_PICTURE_JOB, job, { singletonKey: `contact-${contact.id}`, retryLimit: 2 });
      else await storeContactPicture(ctx, job);
    } finally {
      busy.delete(contact.id);
    }
  });
}

/**
 * Contacts whose picture this node is queueing (or, without a job queue, fetching) right now: the next
 * messages of a new customer, whose row does not show the download yet, ask nothing more.
 */
const asking = new WeakMap<AppContext, Set<number>>();

export async function registerContactPictureJob(boss: PgBoss, ctx: AppContext): Promise<void> {
  await boss.createQueue(CONTACT_PICTURE_JOB);
  await boss.work<PictureJob>(CONTACT_PICTURE_JOB, { batchSize: 5 }, async (jobs) => {
    for (const job of jobs) await storeContactPicture(ctx, job.data);
  });
}

async function download(url: string): Promise<{ data: Buffer; type: NonNullable<ReturnType<typeof sniffImage>> } | null> {
  const data = await get(url, MAX_REDIRECTS, Date.now() + DOWNLOAD_TIMEOUT_MS);
  const type = data && sniffImage(data);
  return data && type && type !== 'ico' ? { data, type } : null;
}

/**
 * The body of a GET (redirects followed), or null when not a 2xx or over the size limit; over
 * node:http(s) rather than fetch, whose stream machinery cost more than the download itself
 * (one per new customer: docs/BENCHMARKS.md, new10).
 */
function get(url: string, redirects: number, deadline: number): Promise<Buffer | null> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const settle = <T>(fn: (value: T) => void) => (value: T) => {
      clearTimeout(timer);
      fn(value);
    };
    const ok = settle(resolve);
    const fail = settle(reject);
    const req = (target.protocol === 'https:' ? https : http).get(target, (res) => {
      const status = res.statusCode ?? 0;
      const next = res.headers.location;
      if (status >= 300 && status < 400 && next && redirects > 0) {
        res.resume();
        get(new URL(next, target).toString(), redirects - 1, deadline).then(ok, fail);
        return;
      }
      if (status < 200 || status >= 300 || Number(res.headers['content-length'] ?? 0) > PICTURE_MAX_BYTES) {
        res.resume();
        ok(null);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= PICTURE_MAX_BYTES) return void chunks.push(chunk);
        ok(null);
        req.destroy();
      });
      res.on('end', () => ok(Buffer.concat(chunks)));
      res.on('error', fail);
    });
    const timer = setTimeout(() => req.destroy(new Error('contact picture download timed out')), Math.max(0, deadline - Date.now()));
    req.on('error', fail);
  });
}

/** The channel's current picture link of the contact, or null when it has none or cannot say. */
async function currentLink(ctx: AppContext, contact: ContactRow, whatsappId: number): Promise<string | null> {
  const [connection] = await ctx.db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, contact.companyId), eq(whatsapps.id, whatsappId)));
  if (!connection) return null;
  return ctx.channels.adapterFor(connection.channel).profilePicture(connection, contact).catch(() => null);
}

/**
 * Downloads the picture, stores it, points the contact at it, removes the copy it replaces and tells the company.
 * A link handed over by the channel needs no read of the contact: a failed download costs one UPDATE, a stored one
 * learns the copy it replaces from that UPDATE (a new contact's first message: docs/BENCHMARKS.md, new10).
 */
export async function storeContactPicture(ctx: AppContext, job: PictureJob): Promise<void> {
  const { companyId, contactId } = job;
  const where = and(eq(contacts.companyId, companyId), eq(contacts.id, contactId));
  const url = job.url ?? (await askedLink(ctx, job));
  const image = url
    ? await download(url).catch((err: unknown) => {
        ctx.log.warn({ err, contactId }, 'contact picture download failed');
        return null;
      })
    : null;
  if (!url || !image) {
    await ctx.db.update(contacts).set({ pictureFetchedAt: new Date() }).where(where);
    return;
  }
  const fileName = randomFileName('contact', image.type);
  await ctx.storage.put(`${contactsFolder(companyId)}/${fileName}`, image.data);
  const prefix = ownUrlPrefix(ctx, companyId);
  const old = alias(contacts, 'old');
  const [row] = await ctx.db
    .update(contacts)
    .set({ profilePicUrl: `${prefix}${fileName}`, pictureSourceUrl: url, pictureFetchedAt: new Date() })
    .from(old)
    .where(and(where, eq(old.id, contacts.id)))
    .returning({ replaced: old.profilePicUrl });
  // The contact is gone: so is the copy just stored.
  const replaced = row ? row.replaced : `${prefix}${fileName}`;
  if (replaced?.startsWith(prefix)) await removeStoredImage(ctx.storage, contactsFolder(companyId), replaced.slice(prefix.length));
  if (!row) return;
  const presented = await loadContact(ctx.db, companyId, contactId);
  if (presented) await ctx.events.publish({ type: 'contact.saved', companyId, action: 'update', contact: presented });
}

/** The channel's current link when it differs from the one our copy came from (null: nothing to download). */
async function askedLink(ctx: AppContext, job: PictureJob): Promise<string | null> {
  const [contact] = await ctx.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, job.companyId), eq(contacts.id, job.contactId)));
  if (!contact) return null;
  const url = await currentLink(ctx, contact, job.whatsappId);
  return url === contact.pictureSourceUrl ? null : url;
}
