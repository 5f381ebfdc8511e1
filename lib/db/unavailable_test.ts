import { assert, assertEquals } from "../../tests/assert.ts";
import { isUnavailable, unavailableError } from "./unavailable.ts";
import { migrateUnderLock } from "./migrate_lock.ts";
import { DatabaseDeadlineError } from "./deadline.ts";
import { keepRunningOnDatabaseErrors, startWhenDatabaseAnswers } from "./outage_guard.ts";
import { silentLogger } from "../log.ts";

const err = (fields: Record<string, unknown>) => Object.assign(new Error(), fields);

Deno.test("every 'database unreachable' form is a 503 with Retry-After", () => {
  const forms = {
    epipe: err({ message: "write EPIPE", code: "EPIPE" }),
    ebadf: err({ message: "write EBADF", code: "EBADF" }),
    brokenPipe: err({ name: "BrokenPipe", message: "Broken pipe (os error 32)" }),
    reset: err({ name: "ConnectionReset", message: "Connection reset by peer (os error 104)" }),
    loginRetry: err({
      name: "PostgresError",
      code: "08P01",
      message: "server login has been failing, try again later (server_login_retry)",
    }),
    loginRetryNoCode: err({ message: "server login has been failing (server_login_retry)" }),
    closed: err({ message: "write CONNECTION_CLOSED 127.0.0.1:6432", code: "CONNECTION_CLOSED" }),
    deadline: new DatabaseDeadlineError(2000),
    wrapped: err({ message: "Failed query: select 1", cause: err({ code: "EPIPE" }) }),
    adminShutdown: err({ name: "PostgresError", code: "57P01", message: "terminating connection" }),
  };
  for (const [form, e] of Object.entries(forms)) {
    const res = unavailableError(e);
    assert(res, `${form} is unavailable`);
    assertEquals([res.status, res.headers?.["retry-after"]], [503, "5"], form);
  }
});

Deno.test("other database errors stay what they are", () => {
  assertEquals(unavailableError(err({ name: "PostgresError", code: "23505" })), null);
  assertEquals(unavailableError(new Error("Failed query: select 1")), null);
});

Deno.test("start-up waits while the database is unreachable, and only then", async () => {
  const waits: number[] = [];
  let calls = 0;
  const started = await startWhenDatabaseAnswers(
    () => {
      if (++calls < 4) {
        return Promise.reject(err({ code: "ECONNREFUSED", message: "connect ECONNREFUSED" }));
      }
      return Promise.resolve("up");
    },
    silentLogger,
    (ms) => Promise.resolve(void waits.push(ms)),
  );
  assertEquals([started, waits], ["up", [1_000, 2_000, 4_000]]);
  let failed: unknown;
  await startWhenDatabaseAnswers(() => Promise.reject(new Error("bad config")), silentLogger)
    .catch((e) => failed = e);
  assertEquals((failed as Error).message, "bad config");
});

// As main.ts does: postgres.js's socket can fail after the promise it belongs to has settled
// (on Deno 2.5, a write EBADF once the dropping server closed it), outside any test.
keepRunningOnDatabaseErrors(silentLogger);

Deno.test("migrations at start: a server that accepts and drops connections is a bounded 503", async () => {
  // postgres.js reconnects to it without end; before the bound, start-up hung here for good.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const dropping = (async () => {
    for await (const conn of listener) conn.close();
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  const t0 = performance.now();
  let failed: unknown;
  try {
    await migrateUnderLock(`postgres://postgres@127.0.0.1:${port}/test`, 1);
  } catch (e) {
    failed = e;
  } finally {
    listener.close();
    await dropping.catch(() => {});
  }
  const ms = performance.now() - t0;
  assertEquals((failed as { code?: string })?.code, "CONNECT_TIMEOUT");
  assert(isUnavailable(failed), "retried at start, 503 for a request");
  assert(ms < 3_000, `bounded: ${Math.round(ms)} ms`);
});
