/**
 * Guardrails across real processes: two instances of the program on one
 * PostgreSQL database and KV file, both running the guardrail loop. A variant's visitors
 * get 5xx while control's do not; the experiment stops itself once (one audit event, one mail), both instances
 * then give every visitor control. Skips (saying why) without TEST_DATABASE_URL.
 */
import postgres from "postgres";
import { assert, assertEquals } from "./assert.ts";
import { type Instance, sharedWorld, signUp, startInstance, stop } from "./instances.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { startFakeMail } from "./fakes/mail.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("experiments_guardrails_instances_test: skipped: no TEST_DATABASE_URL");

/** A visitor's GET on the tenant host (raw HTTP/1.1: fetch keeps its own Host). */
async function visit(inst: Instance, host: string, path: string, ua: string, ip = "127.0.0.1") {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: inst.port });
  await conn.write(
    new TextEncoder().encode(
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: ${ua}\r\n` +
        `X-Forwarded-For: ${ip}\r\nConnection: close\r\n\r\n`,
    ),
  );
  const raw = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
  const head = raw.slice(0, raw.indexOf("\r\n\r\n")).toLowerCase();
  return {
    status: Number(head.split(" ")[1]),
    variant: head.match(/x-cachely-variant-key: (.*)/)?.[1],
  };
}

Deno.test({
  name: "two instances: a variant turning 5xx is stopped once, and both serve control",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_guard");
    const up = startUpstream();
    up.route("/posts/1", () => Response.json({ title: "hello" }));
    up.route("/posts/fail", () => new Response("down", { status: 503 }));
    const mail = startFakeMail();
    const env = {
      ...world.env,
      USAGE_FLUSH_INTERVAL_MS: "500",
      GUARDRAIL_CHECK_INTERVAL_MS: "500",
      MAIL_TRANSPORT_URL: mail.url,
      // Each visitor its own address (guardrails count a few visitors per network).
      TRUSTED_PROXY_HOPS: "1",
    };
    const instances: Instance[] = [];
    const sql = postgres(world.url.toString(), { max: 1, onnotice: () => {} });
    try {
      instances.push(await startInstance(env));
      instances.push(await startInstance(env));
      const [a, b] = instances;
      const owner = await signUp(a);
      const slug = `guard-${crypto.randomUUID().slice(0, 8)}`;
      const api = `/api/tenants/${slug}`;
      const ok = (r: { status: number; text: string }, want = 200) =>
        assertEquals(r.status, want, r.text);
      ok(
        await owner.req(a, "POST", "/api/tenants", { slug, cms: "generic", apiOrigin: up.url }),
        201,
      );
      const rule = await owner.req(a, "POST", `${api}/ai-transform/rules`, {
        presetId: "shorten",
        fieldSelector: "title",
        profile: "casual",
      });
      ok(rule, 201);
      ok(await owner.req(a, "POST", `${api}/ai-transform/rules/${rule.body.id}/activate`));
      const e = await owner.req(a, "POST", `${api}/ai-experiments`, {
        name: "Tone",
        routePattern: "/posts",
        variants: [{ key: "control" }, { key: "casual", transformProfile: "casual" }],
        guardrails: { maxErrorRate: 0.05 },
      });
      ok(e, 201);
      ok(await owner.req(b, "PATCH", `${api}/ai-experiments/${e.body.id}`, { status: "active" }));
      mail.clear();

      const host = `${slug}.localhost:8000`;
      // The variant fails: its visitors' next answer is a 5xx, control's visitors' are fine.
      const started = Date.now();
      for (let i = 0; i < 400; i++) {
        const inst = i % 2 ? a : b;
        const ip = `203.0.${i >> 8}.${i & 255}`;
        const first = await visit(inst, host, `/~api/posts/1?i=${i}`, `visitor/${i}`, ip);
        assertEquals(first.status, 200);
        if (first.variant !== "casual") continue;
        const r = await visit(inst, host, `/~api/posts/fail?i=${i}`, `visitor/${i}`, ip);
        assert(r.status >= 500, `status ${r.status}`);
      }
      let status = "active";
      let reason = "";
      while (Date.now() - started < 30_000) {
        const got = await owner.req(a, "GET", `${api}/ai-experiments/${e.body.id}`);
        [status, reason] = [got.body.status, got.body.stopReason];
        if (status === "stopped") break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const took = Date.now() - started;
      assertEquals(status, "stopped");
      assert(reason.includes("maxErrorRate"), reason);
      console.log(`two instances: stopped ${took} ms after the first 5xx (flush and loop 500 ms)`);
      // Give the other instance's loop a few more passes: still one stop.
      await new Promise((r) => setTimeout(r, 1500));
      const [{ n }] = await sql`SELECT count(*)::int AS n FROM audit_events
        WHERE action = 'experiment.stopped'`;
      assertEquals(n, 1);
      assertEquals(mail.sent.length, 1);

      // Both instances give everyone control (no split) within the snapshot freshness bound.
      for (const inst of [a, b]) {
        let variant: string | undefined = "casual";
        for (let t = 0; t < 30 && variant !== undefined; t++) {
          variant = (await visit(inst, host, `/~api/posts/1?after=${t}`, `late/${t}`)).variant;
          if (variant !== undefined) await new Promise((r) => setTimeout(r, 200));
        }
        assertEquals(variant, undefined, `instance ${inst.port} still splits`);
      }
    } finally {
      for (const i of instances) await stop(i);
      await sql.end();
      await up.close();
      await mail.close();
      await world.close();
    }
  },
});
