/**
 * A KV error on a request path is a 503 with Retry-After, never a 500: a real instance whose
 * KV file another process holds locked (what a KV wipe or a restore does for a moment) answers
 * the public events route, which counts its rate limit in KV first, 503 `unavailable`, and
 * answers as before once the lock is gone; the edge answers 503 when its KV reads keep failing.
 */
import { assert, assertEquals } from "./assert.ts";
import { TEST_ENCRYPTION_KEY } from "./harness.ts";
import { type Instance, startInstance, stop } from "./instances.ts";
import { testConfig } from "./harness.ts";
import { startEdge } from "../edge/boot.ts";
import { createLogger } from "../lib/log.ts";

const SQLITE = ["/usr/bin/sqlite3", "/bin/sqlite3"].find((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
});
if (!SQLITE) console.log("kv_busy_answer_test: skipped: no sqlite3 to hold the KV file's lock");

/** Holds an exclusive lock on the SQLite file until `release()` (a sqlite3 child). */
async function holdLock(file: string) {
  const child = new Deno.Command(SQLITE!, {
    args: [file],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const w = child.stdin.getWriter();
  const enc = new TextEncoder();
  await w.write(enc.encode("BEGIN EXCLUSIVE;\nSELECT 'held';\n"));
  const reader = child.stdout.getReader();
  let seen = "";
  while (!seen.includes("held")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("sqlite3 ended before it held the lock");
    seen += new TextDecoder().decode(value);
  }
  return {
    async release() {
      await w.write(enc.encode("ROLLBACK;\n.quit\n"));
      await w.close().catch(() => {});
      reader.releaseLock();
      await child.stdout.cancel().catch(() => {});
      await child.status;
    },
  };
}

async function postEvent(inst: Instance) {
  const res = await fetch(`http://127.0.0.1:${inst.port}/api/ai-experiments/events`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      tenantSlug: "nobody",
      experimentId: 1,
      variantId: 1,
      variantKey: "control",
      eventName: "signup",
    }),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

Deno.test({
  name: "KV file locked by another process: the events route answers 503 with Retry-After, not 500",
  ignore: !SQLITE,
  sanitizeOps: false, // child processes: their pipes settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const kvFile = `${dir}/kv.sqlite3`;
    const inst = await startInstance({
      DATA_DIR: `${dir}/data`,
      KV_PATH: kvFile,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PROXY_DOMAIN: "localhost:8000",
    });
    try {
      // Before: the rate limit counts, the unknown tenant is refused (not a storage answer).
      const before = await postEvent(inst);
      assert(before.status !== 503 && before.status < 500, JSON.stringify(before.body));
      const lock = await holdLock(kvFile);
      let during;
      try {
        during = await postEvent(inst);
      } finally {
        await lock.release();
      }
      assertEquals(during.status, 503, JSON.stringify(during.body));
      assertEquals(during.body.error.code, "unavailable");
      assertEquals(during.headers.get("retry-after"), "5");
      const after = await postEvent(inst);
      assertEquals(after.status, before.status, JSON.stringify(after.body));
      assert(!inst.out.some((l) => l.includes("unhandled error")), inst.out.join("\n"));
    } finally {
      await stop(inst);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("edge: KV that stays busy through its retries answers 503 with Retry-After, not 500", async () => {
  const inner = await Deno.openKv(":memory:");
  let busy = false;
  // A KV Connect server that keeps answering 503, or a file another process keeps locked.
  const kv = new Proxy(inner, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        if (busy && (prop === "get" || prop === "getMany")) {
          return Promise.reject(new TypeError("database is locked"));
        }
        return v.apply(target, args);
      };
    },
  });
  const part = await startEdge(testConfig(), { kv, log: createLogger("error") });
  try {
    busy = true;
    const req = new Request("http://acme.localhost:8000/~api/items");
    const res = await part.edge.handle(req, { surface: "tenant", slug: "acme" }, {
      clientIp: "127.0.0.1",
    });
    assertEquals(res.status, 503, await res.clone().text());
    assertEquals(res.headers.get("retry-after"), "5");
    assertEquals((await res.json()).error.code, "unavailable");
  } finally {
    busy = false;
    await part.close();
  }
});
