import { fillPlaceholders, type Column } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../../../db/client.js';
import type { AppContext } from '../../../http/context.js';

/**
 * Named prepared statements on the pool: a hot command's statement is compiled once by Drizzle and
 * then run by node-postgres with no query building per call (docs/BENCHMARKS.md, api17b, first17).
 * Rows come back as arrays and are turned into Drizzle rows by the table's columns (`rowOf`).
 */

/** A statement compiled by `PgDialect.sqlToQuery`: its text and its (placeholder) parameters. */
export interface Compiled {
  sql: string;
  params: unknown[];
}

/** `alias."column"` for every column, in the table's order (the order `rowOf` reads them back). */
export const selected = (alias: string, columns: [string, Column][]) => columns.map(([, c]) => `${alias}."${c.name}"`).join(', ');

/** Drizzle's own driver parsing (node-postgres session): dates and intervals as text, turned into values by the columns. */
const RAW_TYPES = new Set([pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.TIMESTAMP, pg.types.builtins.DATE, pg.types.builtins.INTERVAL, 1231, 1115, 1185, 1187, 1182]);
const types = { getTypeParser: (id: number, format?: string) => (RAW_TYPES.has(id) ? (v: string) => v : pg.types.getTypeParser(id, format as 'text')) };

/** The row of `columns` found at `from` in an array row, mapped as Drizzle maps a selected row. */
export function rowOf<T>(columns: [string, Column][], values: unknown[], from: number): T {
  const row: Record<string, unknown> = {};
  columns.forEach(([key, column], i) => {
    const value = values[from + i];
    row[key] = value === null ? null : column.mapFromDriverValue(value);
  });
  return row as T;
}

/** Runs `compiled` as the prepared statement `name` with `values` bound to its placeholders; answers the rows as arrays. */
export async function runPrepared(ctx: Pick<AppContext, 'db'>, name: string, compiled: Compiled, values: Record<string, unknown>): Promise<unknown[][]> {
  const result = await ctx.db.$client.query<unknown[]>({
    name,
    text: compiled.sql,
    values: fillPlaceholders(compiled.params, values),
    rowMode: 'array',
    types,
  });
  return result.rows;
}

/** One Drizzle prepared query per database handle (a test process runs several apps): built on first use, then only executed. */
export function preparedPerDb<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}
