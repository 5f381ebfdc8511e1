/**
 * Shutdown within 5 s in all cases: a real process (`deno run -A
 * main.ts`) with requests to an 8 s loopback upstream in flight gets SIGTERM. It must exit
 * within 5 s (Deno Deploy kills at 5 s), every in-flight request must get an answer (a 503
 * with Retry-After, not a cut connection), and the usage recorded before must be in
 * PostgreSQL. Skips (saying why) without TEST_DATABASE_URL.
 */
import postgres from "postgres";
import { assert, assertEquals } from "./assert.ts";
import { edgeGet, type Instance, sharedWorld, signUp, startInstance, stop } from "./instances.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("shutdown_test: skipped: TEST_DATABASE_URL is not set");

/** A raw HTTP/1.1 GET with a tenant Host, read to the end: status line and headers, or "cut". */
async function fullGet(inst: Instance, host: string, path: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: inst.port });
  await conn.write(
    new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
  );
  let text = "";
  try {
    for await (const chunk of conn.readable) text += new TextDecoder().decode(chunk);
  } catch { /* reset: what was read so far tells */ }
  const [head] = text.split("\r\n\r\n");
  if (!head.startsWith("HTTP/1.1 ")) return { status: 0, retryAfter: null, text };
  const retry = /^retry-after:\s*(\S+)/im.exec(head);
  return { status: Number(head.split(" ")[1]), retryAfter: retry?.[1] ?? null, text };
}

Deno.test({
  name:
    "SIGTERM with 8 s upstream requests in flight: exit within 5 s, each answered 503, usage flushed",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_stop");
    let slowArrived = 0;
    const upstream = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      if (new URL(req.url).pathname.startsWith("/slow")) {
        slowArrived++;
        await new Promise((r) => setTimeout(r, 8_000));
      }
      return Response.json({ ok: true });
    });
    let inst: Instance | null = null;
    try {
      inst = await startInstance(world.env);
      const owner = await signUp(inst);
      const slug = `stop-${crypto.randomUUID().slice(0, 8)}`;
      const created = await owner.req(inst, "POST", "/api/tenants", {
        slug,
        cms: "generic",
        apiOrigin: `http://127.0.0.1:${upstream.addr.port}`,
      });
      assertEquals(created.status, 201, created.text);
      const host = `${slug}.localhost:8000`;
      for (let i = 0; i < 5; i++) assertEquals(await edgeGet(inst, host, `/~api/item${i}`), 200);
      const slow = [1, 2, 3].map((i) => fullGet(inst!, host, `/~api/slow${i}`));
      for (let i = 0; i < 100 && slowArrived < 3; i++) await new Promise((r) => setTimeout(r, 50));
      assertEquals(slowArrived, 3, "three slow requests reached the upstream");
      const t0 = performance.now();
      inst.child.kill("SIGTERM");
      assertEquals(await inst.exited, 0);
      const took = Math.round(performance.now() - t0);
      const answers = await Promise.all(slow);
      console.log(
        `shutdown_test: exit ${took} ms after SIGTERM; in flight got ${
          answers.map((a) => a.status || "cut").join(", ")
        }`,
      );
      assert(took < 5_000, `exited ${took} ms after SIGTERM`);
      for (const a of answers) {
        assertEquals([a.status, a.retryAfter], [503, "5"], a.text || "connection cut");
      }
      const sql = postgres(world.url.toString(), { max: 1, onnotice: () => {} });
      const [{ n }] = await sql`SELECT coalesce(sum(u.requests), 0)::int AS n FROM usage_daily u
        JOIN tenants t ON t.id = u.tenant_id WHERE t.slug = ${slug}`;
      await sql.end();
      assert(n >= 5, `usage rows after shutdown: ${n}`);
    } finally {
      if (inst) await stop(inst);
      await upstream.shutdown();
      await world.close();
    }
  },
});
