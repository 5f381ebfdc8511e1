/**
 * Security cases of the master-admin area kept together: what the log ring (GET
 * /api/admin/logs) and stdout may hold after a failed query.
 */
import { sql } from "drizzle-orm";
import { assert, assertEquals } from "./assert.ts";
import { dbTest, signUp } from "./harness.ts";
import { errorResponse } from "../routes/api/mod.ts";
import { createLogger } from "../lib/log.ts";

const ROOT = "root@example.com";
const EMAIL = "victim@example.com";
const HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo";

/** A real failed query whose bound values are an email and a password hash. */
async function failedQuery(db: { execute(q: unknown): Promise<unknown> }): Promise<Error> {
  try {
    await db.execute(sql`SELECT ${EMAIL}::int AS n, ${HASH}::text AS h`);
  } catch (e) {
    return e as Error;
  }
  throw new Error("the query should have failed");
}

dbTest("a failed query's parameters never reach the admin log ring", async (app) => {
  const root = await signUp(app, ROOT);
  const err = await failedQuery(app.services.db);
  assert(err.message.includes(EMAIL), "Drizzle puts the parameters into the message");
  assertEquals(errorResponse(err, app.services.log).status, 500);
  const logs = await root.get("/api/admin/logs?limit=100");
  assertEquals(logs.status, 200);
  const text = JSON.stringify(logs.body);
  assert(text.includes("Failed query"), "the failure itself is logged");
  assert(!text.includes(EMAIL), "no email in the ring");
  assert(!text.includes(HASH), "no password hash in the ring");
}, { env: { ADMIN_EMAILS: ROOT } });

dbTest("a failed query's parameters never reach stdout, stack included", async (app) => {
  const lines: string[] = [];
  const err = await failedQuery(app.services.db);
  errorResponse(err, createLogger("debug", (l) => lines.push(l)));
  assertEquals(lines.length, 1);
  assert(lines[0].includes("Failed query"));
  assert(!lines[0].includes(EMAIL) && !lines[0].includes(HASH), lines[0]);
});
