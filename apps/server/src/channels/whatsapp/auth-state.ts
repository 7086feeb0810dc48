import { BufferJSON, initAuthCreds, proto, type AuthenticationCreds, type SignalDataSet, type SignalDataTypeMap } from '@whiskeysockets/baileys';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { whatsappSessions } from '../../db/schema/index.js';

const CREDS = 'creds';
const keyName = (type: string, id: string) => `${type}-${id}`;

/**
 * Baileys auth state in `whatsapp_sessions` (one row per key) instead of files, so
 * sessions survive restarts and several API nodes share them. Values are serialised
 * with Baileys' BufferJSON; nothing here is ever logged or sent to a client.
 */
export async function useDatabaseAuthState(db: Db, whatsappId: number) {
  const read = async (key: string): Promise<unknown> => {
    const [row] = await db
      .select({ value: whatsappSessions.value })
      .from(whatsappSessions)
      .where(and(eq(whatsappSessions.whatsappId, whatsappId), eq(whatsappSessions.key, key)));
    return row ? JSON.parse(row.value, BufferJSON.reviver) : null;
  };
  const creds = ((await read(CREDS)) as AuthenticationCreds | null) ?? initAuthCreds();

  return {
    state: {
      creds,
      keys: {
        get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
          const out: { [id: string]: SignalDataTypeMap[T] } = {};
          if (ids.length === 0) return out;
          const rows = await db
            .select({ key: whatsappSessions.key, value: whatsappSessions.value })
            .from(whatsappSessions)
            .where(and(eq(whatsappSessions.whatsappId, whatsappId), inArray(whatsappSessions.key, ids.map((id) => keyName(type, id)))));
          const byKey = new Map(rows.map((r) => [r.key, r.value]));
          for (const id of ids) {
            const raw = byKey.get(keyName(type, id));
            if (raw === undefined) continue;
            let value: unknown = JSON.parse(raw, BufferJSON.reviver);
            if (type === 'app-state-sync-key') value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
            out[id] = value as SignalDataTypeMap[T];
          }
          return out;
        },
        set: async (data: SignalDataSet) => {
          const upserts: { whatsappId: number; key: string; value: string }[] = [];
          const deletes: string[] = [];
          for (const [type, entries] of Object.entries(data)) {
            for (const [id, value] of Object.entries(entries ?? {})) {
              if (value) upserts.push({ whatsappId, key: keyName(type, id), value: JSON.stringify(value, BufferJSON.replacer) });
              else deletes.push(keyName(type, id));
            }
          }
          await db.transaction(async (tx) => {
            if (upserts.length) {
              await tx
                .insert(whatsappSessions)
                .values(upserts)
                .onConflictDoUpdate({ target: [whatsappSessions.whatsappId, whatsappSessions.key], set: { value: sql`excluded.value`, updatedAt: new Date() } });
            }
            if (deletes.length) {
              await tx.delete(whatsappSessions).where(and(eq(whatsappSessions.whatsappId, whatsappId), inArray(whatsappSessions.key, deletes)));
            }
          });
        },
      },
    },
    saveCreds: async () => {
      const value = JSON.stringify(creds, BufferJSON.replacer);
      await db
        .insert(whatsappSessions)
        .values({ whatsappId, key: CREDS, value })
        .onConflictDoUpdate({ target: [whatsappSessions.whatsappId, whatsappSessions.key], set: { value, updatedAt: new Date() } });
    },
  };
}

/** Forgets a connection's session (logged out, or a new QR was asked for). */
export async function clearAuthState(db: Db, whatsappId: number): Promise<void> {
  await db.delete(whatsappSessions).where(eq(whatsappSessions.whatsappId, whatsappId));
}

export async function hasStoredCreds(db: Db, whatsappId: number): Promise<boolean> {
  const [row] = await db
    .select({ key: whatsappSessions.key })
    .from(whatsappSessions)
    .where(and(eq(whatsappSessions.whatsappId, whatsappId), eq(whatsappSessions.key, CREDS)));
  return row !== undefined;
}
