/**
 * Deployability: with DATABASE_URL and ENCRYPTION_KEY set a missing DATA_DIR
 * never crashes the start; on Deno Deploy the embedded database is refused up front.
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { openTestDb, testConfig } from "./harness.ts";
import { bootstrap } from "../lib/bootstrap.ts";
import { silentLogger } from "../lib/log.ts";
import { ConfigError, loadConfig } from "../lib/config.ts";

Deno.test("a missing DATA_DIR is created for the KV file, never a crash", async () => {
  const parent = await Deno.makeTempDir();
  const dataDir = `${parent}/not/yet/there`;
  try {
    const config = { ...testConfig({ DATA_DIR: dataDir }), kvPath: undefined };
    const app = await bootstrap(config, {
      dbHandle: await openTestDb("pglite"),
      log: silentLogger,
    });
    await app.close();
    assert((await Deno.stat(`${dataDir}/kv.sqlite3`)).isFile);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("DENO_DEPLOY=true requires DATABASE_URL (nothing is written under the project)", () => {
  const e = assertThrows(() => loadConfig({ DENO_DEPLOY: "true" }));
  assert(e instanceof ConfigError);
  assert(String(e.message).includes("DATABASE_URL"));
  const ok = loadConfig({ DENO_DEPLOY: "true", DATABASE_URL: "postgres://db/x" });
  assertEquals(ok.denoDeploy, true);
});

/**
 * Deno KV queue calls in `source`: Deno Deploy (the current platform) has no KV queues, so
 * `listenQueue` or an `enqueue` on a KV database or atomic operation would never deliver there.
 * A stream controller's or an in-memory queue's `enqueue` is fine: the statement leading to
 * the call (back to the previous `;`, `{` or `}`) must not name KV or `atomic(`.
 */
function kvQueueCalls(source: string): string[] {
  const found = [...source.matchAll(/\blistenQueue\b/g)].map(() => "listenQueue");
  for (const m of source.matchAll(/\.enqueue\s*\(/g)) {
    const before = source.slice(0, m.index);
    const start = Math.max(...[";", "{", "}"].map((c) => before.lastIndexOf(c))) + 1;
    const statement = before.slice(start);
    if (/atomic\s*\(|\bkv\b|Deno\.Kv/i.test(statement)) found.push(statement.trim() + ".enqueue(");
  }
  return found;
}

Deno.test("no Deno KV queue anywhere in the program (Deno Deploy has none)", async () => {
  // The detector finds the forms a KV queue takes, across lines too.
  assertEquals(kvQueueCalls("await kv.listenQueue((m) => {});").length, 1);
  assertEquals(kvQueueCalls("await services.kv.enqueue({ a: 1 });").length, 1);
  assertEquals(
    kvQueueCalls("await kv.atomic()\n  .check(x)\n  .enqueue(msg)\n  .commit();").length,
    1,
  );
  assertEquals(kvQueueCalls("controller.enqueue(chunk); this.runs.enqueue({ id });").length, 0);
  const root = new URL("../", import.meta.url);
  const offenders: string[] = [];
  const walk = async (dir: URL): Promise<void> => {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory && ![".data", ".git", "node_modules", "tests"].includes(e.name)) {
        await walk(new URL(`${e.name}/`, dir));
      } else if (e.isFile && /\.tsx?$/.test(e.name) && !e.name.endsWith("_test.ts")) {
        const file = new URL(e.name, dir);
        for (const call of kvQueueCalls(await Deno.readTextFile(file))) {
          offenders.push(`${file.pathname.slice(root.pathname.length)}: ${call}`);
        }
      }
    }
  };
  await walk(root);
  assertEquals(offenders, []);
});
