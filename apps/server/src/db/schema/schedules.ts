import { SCHEDULE_STATUSES } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';
import { contacts } from './contacts.js';
import { queues } from './queues.js';
import { users } from './users.js';
import { whatsapps } from './whatsapps.js';

/** A scheduled message (spec 2 §3 Schedule); the engine is modules/schedules/engine.ts. */
export const schedules = pgTable(
  'schedules',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    /** When the next send happens: `plannedAt` moved off a non-business day when `tipoDias` says so. */
    sendAt: timestamp('send_at', { withTimezone: true }).notNull(),
    /** The occurrence as the recurrence computes it, before any business-day move (the next one counts from here, so moves never drift). */
    plannedAt: timestamp('planned_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    status: text('status', { enum: SCHEDULE_STATUSES }).notNull().default('PENDENTE'),
    reason: text('reason'),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** Who created it. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    ticketUserId: integer('ticket_user_id').references(() => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    openTicket: text('open_ticket', { enum: ['enabled', 'disabled'] })
      .notNull()
      .default('enabled'),
    statusTicket: text('status_ticket', { enum: ['open', 'closed'] })
      .notNull()
      .default('closed'),
    intervalo: integer('intervalo').notNull().default(1),
    valorIntervalo: integer('valor_intervalo').notNull().default(0),
    enviarQuantasVezes: integer('enviar_quantas_vezes').notNull().default(1),
    contadorEnvio: integer('contador_envio').notNull().default(0),
    tipoDias: integer('tipo_dias').notNull().default(4),
    assinar: boolean('assinar').notNull().default(false),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    /** While AGENDADA: the claiming process's lease; a lapsed one means it died mid-send. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** The outbox message of the last send until the channel accepted or refused it. */
    pendingMessageId: integer('pending_message_id'),
    ...timestamps,
  },
  (t) => [
    index('schedules_company_id_idx').on(t.companyId, t.sendAt),
    index('schedules_contact_id_idx').on(t.contactId),
    index('schedules_due_idx').on(t.sendAt).where(sql`status = 'PENDENTE'`),
    index('schedules_claimed_idx').on(t.claimedUntil).where(sql`status = 'AGENDADA'`),
    index('schedules_pending_message_idx').on(t.pendingMessageId).where(sql`pending_message_id IS NOT NULL`),
  ],
);
