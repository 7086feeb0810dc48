import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies.js';
import { users } from './users.js';

/** A user's TOTP secret (AES-GCM encrypted); `enabledAt` null while the enrolment awaits its first code. */
export const userTwoFactor = pgTable(
  'user_two_factor',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    secretEncrypted: text('secret_encrypted').notNull(),
    enabledAt: timestamp('enabled_at', { withTimezone: true }),
    // The last accepted 30 s step: a code is accepted once (RFC 6238 §5.2).
    lastUsedStep: bigint('last_used_step', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_two_factor_company_id_idx').on(t.companyId, t.userId)],
);

/** Single-use recovery codes, stored as SHA-256 hashes of high-entropy random codes. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('user_recovery_codes_company_id_idx').on(t.companyId, t.userId)],
);

/** A company's rule that its users must use two-factor login. */
export const twoFactorPolicies = pgTable('two_factor_policies', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  required: boolean('required').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Append-only record of administrative changes. No foreign keys: the history outlives
 * the users and companies it names (a deleted company's entries stay for the super user).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id').notNull(),
    userId: integer('user_id'),
    userName: text('user_name'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    changes: jsonb('changes').$type<Record<string, { before?: unknown; after?: unknown }>>().notNull().default({}),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_company_created_idx').on(t.companyId, t.createdAt.desc(), t.id.desc()),
    index('audit_log_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);
