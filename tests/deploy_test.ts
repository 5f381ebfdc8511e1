/**
 * Deployability (issue 8): with DATABASE_URL and ENCRYPTION_KEY set a missing DATA_DIR
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
