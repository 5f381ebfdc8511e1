/**
 * Instructions per request of Cachely's own edge work, in process (no sockets on the
 * visitor's side), counted by callgrind: deterministic where wall-clock figures on a shared
 * machine are not, and where `perf` has no hardware counters. Each case runs N requests
 * through `app.handler` after a warm-up; callgrind's counters are zeroed and dumped around
 * the measured loop (from this process, via callgrind_control), and the cost of an empty
 * zero/dump cycle is subtracted.
 *
 *   valgrind --tool=callgrind --smc-check=all --instr-atstart=no \
 *     --callgrind-out-file=/tmp/cg-edge.%p deno run -A bench/callgrind_edge.ts [N] [/tmp/cg-edge.%p]
 *
 * Cases: a plain 2 KB JSON hit, the same with `?transform=bench` (a fake model applied it),
 * a miss of a unique path (the origin runs in a child process, not counted). What the
 * runtime spends writing the response to a socket is not included: that is the floors'
 * part (bench/floor.ts).
 */
import { loadConfig } from "../lib/config.ts";
import { bootstrap } from "../lib/bootstrap.ts";
import { openDb } from "../lib/db/client.ts";
import { createUser } from "../lib/users/mod.ts";
import { createPersonalToken } from "../lib/auth/tokens.ts";
import { createTenant } from "../lib/tenants/service.ts";
import { silentLogger } from "../lib/log.ts";
import { upsertBilling } from "../lib/billing/state.ts";
import { startBenchModel } from "./transform_model.ts";

const N = Number(Deno.args[0] ?? 5000);
const outFile = (Deno.args[1] ?? "/tmp/cg-edge.%p").replace("%p", String(Deno.pid));

const originProc = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", new URL("./origin.ts", import.meta.url).pathname],
  stdout: "piped",
  stderr: "inherit",
}).spawn();
const reader = originProc.stdout.pipeThrough(new TextDecoderStream()).getReader();
let line = "";
while (!line.includes("\n")) line += (await reader.read()).value ?? "";
const origin = `http://127.0.0.1:${JSON.parse(line.split("\n")[0]).port}`;
const model = startBenchModel(1);

const app = await bootstrap(
  loadConfig({
    ENCRYPTION_KEY: btoa("bench-key-0123456789abcdef012345"),
    KV_PATH: ":memory:",
    PUBLIC_URL: "http://localhost:8000",
    PROXY_DOMAIN: "localhost:8000",
    ALLOW_PRIVATE_UPSTREAMS: "true",
    QUOTAS: "off",
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: "bench-key",
    AI_MODEL: "bench-model",
  }),
  { dbHandle: await openDb({}), kv: await Deno.openKv(":memory:"), log: silentLogger },
);
const user = await createUser(app.services, "bench@example.com", "bench password 123");
await upsertBilling(app.services, user.id, { planCode: "pro", adminOverride: true });
const pat = await createPersonalToken(app.services, user.id, "bench");
await createTenant(app.services, user.id, {
  slug: "bench",
  cms: "generic",
  apiOrigin: origin,
  apiAuthMode: "bearer",
  token: "bench-upstream-token",
});
const info = {
  remoteAddr: { transport: "tcp" as const, hostname: "127.0.0.1", port: 40000 },
  completed: Promise.resolve(),
};
async function manage(method: string, path: string, body: unknown) {
  const res = await app.handler(
    new Request(`http://localhost:8000/api${path}`, {
      method,
      headers: { authorization: `Bearer ${pat.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    info,
  );
  const j = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(j)}`);
  return j;
}
const rule = await manage("POST", "/tenants/bench/ai-transform/rules", {
  presetId: "rewrite_tone",
  tone: "formal",
  fieldSelector: "items[*].title",
  profile: "bench",
});
await manage("POST", `/tenants/bench/ai-transform/rules/${rule.id}/activate`, {});

const base = "http://bench.localhost:8000/~api";
async function get(url: string): Promise<Response> {
  const res = await app.handler(new Request(url), info);
  await res.body?.cancel();
  return res;
}
for (let i = 0; i < 3; i++) {
  await get(`${base}/data.json`);
  await get(`${base}/data.json?transform=bench`);
}
const t = await app.handler(new Request(`${base}/data.json?transform=bench`), info);
if (t.headers.get("x-ai-transform") !== "applied" || t.headers.get("x-cachely-cache") !== "HIT") {
  throw new Error(`transform not warm: ${[...t.headers].join(" ")}`);
}

async function control(arg: string): Promise<void> {
  await new Deno.Command("callgrind_control", { args: [arg, String(Deno.pid)], stdout: "null" })
    .output();
}
let dumps = 0;
async function counted(run: () => Promise<void>): Promise<number> {
  await control("--zero");
  await run();
  await control("--dump");
  dumps++;
  const text = await Deno.readTextFile(`${outFile}.${dumps}`);
  return Number(text.match(/^totals: (\d+)/m)![1]);
}

await control("--instr=on");
type Case = { name: string; url: (i: number) => string; n: number };
let missSeq = 0;
const cases: Case[] = [
  { name: "hit, 2 KB JSON", url: () => `${base}/data.json`, n: N },
  { name: "hit, ?transform=bench", url: () => `${base}/data.json?transform=bench`, n: N },
  { name: "miss, unique path", url: () => `${base}/miss/k${missSeq++}`, n: Math.ceil(N / 10) },
];
const empty: number[] = [];
for (let i = 0; i < 3; i++) empty.push(await counted(async () => {}));
const overhead = Math.min(...empty);
for (const c of cases) {
  // warm-up: JIT tiers, memos
  for (let i = 0; i < c.n; i++) await get(c.url(i));
  const runs: number[] = [];
  for (let r = 0; r < 2; r++) {
    runs.push(
      await counted(async () => {
        for (let i = 0; i < c.n; i++) await get(c.url(i));
      }),
    );
  }
  console.log(
    `${c.name}: ${
      runs.map((x) => Math.round((x - overhead) / c.n)).join(" / ")
    } instructions/request (${c.n} requests per run)`,
  );
}
console.log(`(empty zero/dump cycle: ${empty.join(" / ")} instructions)`);
await app.close();
originProc.kill();
Deno.exit(0);
