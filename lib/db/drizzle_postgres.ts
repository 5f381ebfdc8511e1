/**
 * drizzle over Cachely's postgres.js client (vendor/postgres), built as drizzle-orm 0.45.4's
 * `drizzle()` of `drizzle-orm/postgres-js` builds it (its driver.js `construct`), without
 * importing that module: it imports the npm package `postgres`, an optional peer that only
 * the lock file resolves. Without the lock (`deno run --no-lock`, a fresh resolution) start-up
 * failed with "Could not find package 'postgres'", and with it the npm copy loaded beside
 * ours for nothing. Re-read driver.js when drizzle-orm's version changes.
 */
import { PgDatabase, PgDialect } from "drizzle-orm/pg-core";
import { PostgresJsSession } from "drizzle-orm/postgres-js/session";
import {
  createTableRelationsHelpers,
  entityKind,
  extractTablesRelationalConfig,
} from "drizzle-orm";
import type { Sql } from "postgres";

/** drizzle's class for this driver: the same entity kind as its own. */
// deno-lint-ignore no-explicit-any -- PgDatabase's type parameters are drizzle's, read loosely here
class PostgresJsDatabase extends PgDatabase<any, any, any> {
  static override readonly [entityKind]: string = "PostgresJsDatabase";
}

/** The types drizzle reads as strings (timestamps, dates, times, intervals, JSON): as it sets them. */
const TRANSPARENT_PARSED = ["1184", "1082", "1083", "1114", "1182", "1185", "1115", "1231"];
const TRANSPARENT_SERIALIZED = ["114", "3802"];

export function drizzleOverPostgres(client: Sql, schema: Record<string, unknown>): unknown {
  const transparent = (v: unknown) => v;
  const options = client.options as unknown as {
    parsers: Record<string, unknown>;
    serializers: Record<string, unknown>;
  };
  for (const type of TRANSPARENT_PARSED) {
    options.parsers[type] = transparent;
    options.serializers[type] = transparent;
  }
  for (const type of TRANSPARENT_SERIALIZED) options.serializers[type] = transparent;
  const dialect = new PgDialect();
  const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
  const relational = {
    fullSchema: schema,
    schema: tables.tables,
    tableNamesMap: tables.tableNamesMap,
  };
  // deno-lint-ignore no-explicit-any -- drizzle types its session's client as the npm package's Sql
  const session = new PostgresJsSession(client as any, dialect, relational, {});
  const db = new PostgresJsDatabase(dialect, session, relational);
  (db as unknown as { $client: Sql }).$client = client;
  return db;
}
