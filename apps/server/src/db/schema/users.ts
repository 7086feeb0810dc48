import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';
import { queues } from './queues.js';

const toggle = (name: string, initial: 'enabled' | 'disabled') =>
  text(name, { enum: ['enabled', 'disabled'] }).notNull().default(initial);

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    // Stored lowercased; unique across the platform (login is by e-mail alone).
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    profile: text('profile', { enum: ['admin', 'user'] }).notNull().default('user'),
    super: boolean('super').notNull().default(false),
    tokenVersion: integer('token_version').notNull().default(0),
    showDashboard: toggle('show_dashboard', 'disabled'),
    allowRealTime: toggle('allow_real_time', 'disabled'),
    allowConnections: toggle('allow_connections', 'disabled'),
    allTicket: toggle('all_ticket', 'disabled'),
    allHistoric: toggle('all_historic', 'disabled'),
    allUserChat: toggle('all_user_chat', 'disabled'),
    userClosePendingTicket: toggle('user_close_pending_ticket', 'enabled'),
    allowGroup: boolean('allow_group').notNull().default(false),
    profileImage: text('profile_image'),
    color: text('color'),
    startWork: text('start_work').notNull().default('00:00'),
    endWork: text('end_work').notNull().default('23:59'),
    // Default connection; the FK arrives with the connections table.
    whatsappId: integer('whatsapp_id'),
    defaultMenu: text('default_menu', { enum: ['open', 'closed'] }).notNull().default('closed'),
    defaultTheme: text('default_theme', { enum: ['light', 'dark'] }).notNull().default('light'),
    farewellMessage: text('farewell_message'),
    online: boolean('online').notNull().default(false),
    /** The most tickets automatic assignment gives this attendant (docs/chatbots.md, "Capacity"); null or 0: unlimited. */
    maxOpenTickets: integer('max_open_tickets'),
    defaultTicketsManagerWidth: integer('default_tickets_manager_width').default(550),
    ...timestamps,
  },
  (t) => [index('users_company_id_idx').on(t.companyId, t.id)],
);

export const userQueues = pgTable(
  'user_queues',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.queueId] }),
    index('user_queues_company_id_idx').on(t.companyId, t.queueId),
  ],
);
