/**
 * KV values this runtime cannot decode: Deno 2.5 (Deno Deploy's line)
 * throws `RangeError: could not deserialize value` on what Deno 2.9 wrote, and crashed at
 * boot reading KV's installation marker. Simulated here on either runtime by rewriting the
 * stored V8 values of a KV file (SQLite) with a serialization version no V8 knows; checked
 * across the real runtimes by hand (docs/operations.md "Runtime version"). Such a value is
 * treated as missing (lib/kv/undecodable.ts): the process starts, the reconcile pass
 * rebuilds the edge from the database, an old session reads as signed out.
 */
import { assert, assertEquals } from "./assert.ts";
import { DatabaseSync } from "node:sqlite";
import { startUpstream } from "./fakes/upstream.ts";
import {
  createTenantOn,
  edgeFetch,
  type Instance,
  sharedWorld,
  signUp,
  startInstance,
  stop,
} from "./instances.ts";
import { TEST_ENCRYPTION_KEY } from "./harness.ts";
import { decodableKv, resetUndecodableNotice } from "../lib/kv/undecodable.ts";
import { decodeValue } from "../lib/kv/portable.ts";
import type { Logger } from "../lib/log.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");

/**
 * Rewrites the values of the (closed) KV file at `path` in the form versions before
 * lib/kv/portable.ts stored them (V8 serialization), as in a file written before that form.
 */
async function toLegacyValues(path: string): Promise<void> {
  const kv = await Deno.openKv(path);
  try {
    for await (const e of kv.list({ prefix: [] })) {
      const legacy = decodeValue(e.value);
      if (legacy !== e.value) await kv.set(e.key, legacy);
    }
  } finally {
    kv.close();
  }
}

/**
 * Rewrites every V8-serialized value of the (closed) KV file at `path` to claim V8
 * serialization version 127, which no runtime reads; returns how many. Values KV stores as
 * raw bytes or as a KvU64 (encodings 2 and 3) are left alone: they never go through V8.
 */
function makeUndecodable(path: string): number {
  const db = new DatabaseSync(path);
  try {
    const rows = db.prepare("SELECT k, v FROM kv WHERE v_encoding = 1").all() as {
      k: Uint8Array;
      v: Uint8Array;
    }[];
    const update = db.prepare("UPDATE kv SET v = ? WHERE k = ?");
    for (const { k, v } of rows) {
      const bytes = new Uint8Array(v);
      bytes[1] = 0x7f; // after the 0xFF version tag
      update.run(bytes, k);
    }
    return rows.length;
  } finally {
    db.close();
  }
}

async function kvFile(): Promise<{ dir: string; path: string }> {
  const dir = await Deno.makeTempDir();
  return { dir, path: `${dir}/kv.sqlite3` };
}

Deno.test("get, getMany and a read-check-write treat an undecodable value as missing, logged once", async () => {
  const { dir, path } = await kvFile();
  try {
    const raw = await Deno.openKv(path);
    await raw.set(["a"], { id: "x" });
    await raw.set(["b"], "text");
    await raw.set(["c"], 1);
    await raw.set(["n"], new Deno.KvU64(7n));
    raw.close();
    assertEquals(makeUndecodable(path), 3);
    const warned: string[] = [];
    const log: Logger = {
      debug() {},
      info() {},
      warn: (m) => warned.push(m),
      error() {},
    };
    resetUndecodableNotice();
    const plain = await Deno.openKv(path);
    const kv = decodableKv(plain, log);
    try {
      let thrown = "";
      try {
        await plain.get(["a"]);
      } catch (e) {
        thrown = String(e);
      }
      assert(/deserializ/i.test(thrown), `the runtime refuses it: ${thrown}`);
      const got = await kv.get(["a"]);
      assertEquals([got.value, got.versionstamp], [null, null]);
      const many = await kv.getMany([["b"], ["n"], ["missing"]]);
      assertEquals(many.map((e) => e.value), [null, new Deno.KvU64(7n), null]);
      // deleted as it was read: a read-check-write on it commits instead of failing its check
      const c = await kv.get(["c"]);
      assertEquals((await kv.atomic().check(c).set(["c"], 2).commit()).ok, true);
      assertEquals((await plain.get(["c"])).value, 2);
      assertEquals(warned.length, 1, warned.join("\n"));
    } finally {
      kv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "a KV file written by a newer runtime: the instance starts and serves, rebuilt from the database",
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    // PostgreSQL when there is one, else the embedded database under DATA_DIR.
    const world = BASE ? await sharedWorld(BASE, "cachely_kvdecode") : null;
    const dir = world?.dir ?? await Deno.makeTempDir();
    const env = world?.env ?? {
      DATA_DIR: `${dir}/data`,
      KV_PATH: `${dir}/kv.sqlite3`,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PROXY_DOMAIN: "localhost:8000",
      ALLOW_PRIVATE_UPSTREAMS: "true",
      USAGE_FLUSH_INTERVAL_MS: "3600000",
    };
    const up = startUpstream();
    up.route("/item", () => Response.json({ ok: true }));
    const instances: Instance[] = [];
    try {
      const a = await startInstance(env);
      instances.push(a);
      const owner = await signUp(a);
      const { slug, host } = await createTenantOn(a, owner, "kvd", up.url);
      assertEquals((await edgeFetch(a, host, "/~api/item")).status, 200);
      await stop(a);
      instances.length = 0;
      await toLegacyValues(env.KV_PATH);
      assert(makeUndecodable(env.KV_PATH) > 3, "marker, snapshot, session… rewritten");

      const b = await startInstance(env);
      instances.push(b);
      assertEquals((await edgeFetch(b, host, "/~api/item")).status, 200, "rebuilt before serving");
      assertEquals((await owner.req(b, "GET", "/api/auth/me")).status, 401, "session unreadable");
      const login = await owner.req(b, "POST", "/api/auth/login", {
        email: owner.email,
        password: "correct horse battery",
      });
      assertEquals(login.status, 200, login.text);
      const bump = await owner.req(b, "POST", `/api/tenants/${slug}/refresh-cache`, {
        type: "api",
      });
      assertEquals(bump.status, 200, bump.text);
      const notes = b.out.filter((l) => l.includes("cannot decode"));
      assertEquals(notes.length, 1, b.out.join("\n"));
    } finally {
      await Promise.all(instances.map(stop));
      await up.close();
      if (world) await world.close();
      else await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
