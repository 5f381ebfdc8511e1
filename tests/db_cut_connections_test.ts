/**
 * Database connections cut at random byte offsets: `deno run -A main.ts` reaches PostgreSQL
 * through a relay (tests/tcp_freezer.ts) that, for a while, ends every connection within
 * 40 KB (mid-message, mid-transaction, mid-login). The process must stay up, answer management
 * requests 200 or 503 (never 500, never no answer), keep the edge serving, and recover by
 * itself once the path is clean. With postgres.js 3.4.9 as published, a transaction cut this way ended the
 * process within seconds (vendor/postgres/README.md).
 */
import { assert, assertEquals } from "./assert.ts";
import { edgeGet, instanceBehindRelay } from "./instances.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name: "database connections cut at random offsets: no exit, 200 or 503, recovery [postgres]",
  ignore: !BASE,
  sanitizeOps: false, // child process: its pipes and exit status settle after stop()
  sanitizeResources: false,
  async fn() {
    const w = await instanceBehindRelay(BASE!, "cachely_cut", "cut", {
      DB_REQUEST_TIMEOUT_MS: "2000",
    });
    const { relay, inst, owner, slug, host } = w;
    let exited = false;
    inst.exited.then(() => exited = true);
    try {
      assertEquals(await edgeGet(inst, host, "/~api/warm"), 200);

      relay.startCutting(40_000);
      const statuses: Record<string, number> = {};
      const unexpected: string[] = [];
      const noAnswer = (e: unknown) => ({ status: 0, body: null, text: `no answer: ${e}` });
      // At least 6 s and 30 cuts (a loaded machine moves fewer bytes a second), at most 40 s.
      const start = performance.now();
      const going = () => {
        const t = performance.now() - start;
        return !exited && t < 40_000 && (t < 6_000 || relay.cuts < 30);
      };
      const worker = async (w: number) => {
        for (let i = 0; going(); i++) {
          const r = await [
            () => owner.req(inst, "PUT", `/api/tenants/${slug}/api-config`, { cacheTTL: 60 + i }),
            () => owner.req(inst, "POST", `/api/tenants/${slug}/purge`, { tags: [`t${w}`] }),
            () => owner.req(inst, "GET", `/api/tenants/${slug}`),
            () => owner.req(inst, "GET", `/dashboard/${slug}/logs`),
          ][(i + w) % 4]().catch(noAnswer);
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          // 429: the plan's purge limit (30 a minute), which these purges soon reach.
          const expected = r.status === 200 || r.status === 503 ||
            (r.status === 429 && r.body?.error?.code === "rate_limited");
          if (!expected) unexpected.push(`${r.status} ${r.text}`);
        }
      };
      await Promise.all([0, 1, 2, 3, 4, 5].map(worker));
      const edge = await edgeGet(inst, host, "/~api/warm").catch(() => 0);
      relay.stopCutting();
      console.log(
        `db_cut_connections_test: ${relay.cuts} connections cut; answers ${
          JSON.stringify(statuses)
        }`,
      );
      assert(!exited, `the process ended:\n${inst.out.slice(-15).join("\n")}`);
      assertEquals(unexpected.slice(0, 5), [], "every answer 200, 503 or the purge limit's 429");
      assert(relay.cuts >= 30, `cuts happened: ${relay.cuts}`);
      assert((statuses[503] ?? 0) > 0, "some requests met a cut connection");
      assertEquals(edge, 200, "the edge serves from its snapshot throughout");

      let after = await owner.req(inst, "PUT", `/api/tenants/${slug}/api-config`, {
        cacheTTL: 99,
      });
      for (let i = 0; i < 40 && after.status !== 200; i++) {
        await sleep(250);
        after = await owner.req(inst, "PUT", `/api/tenants/${slug}/api-config`, { cacheTTL: 99 });
      }
      assertEquals(after.status, 200, after.text);
      assertEquals(inst.out.filter((l) => /uncaught/i.test(l)), []);
    } finally {
      await w.close();
    }
  },
});
