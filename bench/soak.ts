/**
 * The fault soak: 4 real instances (`deno run -A main.ts`) on one KV file and one PostgreSQL
 * behind a real pgbouncer (transaction mode), mixed traffic at a modest rate for `--minutes`
 * (default 11), and faults on a schedule: pgbouncer frozen (SIGSTOP) and resumed, KV backups
 * restored under the running instances, pgbouncer killed and restarted. Then every instance is
 * stopped (SIGTERM, its final usage flush) and the run is checked against the database:
 * acknowledged writes lost, wedged instances, usage per instance (each instance alone serves
 * one tenant, so its usage must equal the answers it gave), 404s for existing tenants, 5xx by
 * cause, cancel requests pgbouncer saw, load average. Figures go in bench/RESULTS.md.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *     deno run -A bench/soak.ts --minutes 11 --out /tmp/soak.json
 */
import { backupKv, restoreKv } from "../tests/kv_backup.ts";
import postgres from "postgres";
import {
  type Agent,
  edgeFetch,
  type Instance,
  sharedWorld,
  signUp,
  startInstance,
  startPgbouncer,
} from "../tests/instances.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const arg = (name: string, dflt: string) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : dflt;
};
const MINUTES = Number(arg("minutes", "11"));
const OUT = arg("out", "");
const EDGE_EVERY_MS = Number(arg("edge-every-ms", "250"));
const t0 = performance.now();
const now = () => (performance.now() - t0) / 1000;
const log = (msg: string) => console.log(`[${now().toFixed(1)}s] ${msg}`);

/** Counts by label. */
class Tally {
  m = new Map<string, number>();
  add(k: string, n = 1) {
    this.m.set(k, (this.m.get(k) ?? 0) + n);
  }
  obj() {
    return Object.fromEntries([...this.m].sort());
  }
}

type World = Awaited<ReturnType<typeof sharedWorld>>;
type Bouncer = { url: string; child: Deno.ChildProcess };

const stats = {
  mgmt: new Tally(), // management answers by status + code
  edge: new Tally(), // edge answers by status + code
  fiveXX: new Tally(), // 5xx (and no answer) by cause
  faults: [] as { at: number; what: string }[],
  load: [] as number[],
  existing404: 0,
  existingChecks: 0,
  young404: 0,
};

/** A management call with the owner's session and a client-side timeout. */
async function call(inst: Instance, who: Agent, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = {
    origin: `http://127.0.0.1:${inst.port}`,
    cookie: who.cookie,
  };
  if (body !== undefined) headers["content-type"] = "application/json";
  try {
    const res = await fetch(`http://127.0.0.1:${inst.port}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let code = "";
    try {
      code = JSON.parse(text)?.error?.code ?? "";
    } catch { /* not JSON */ }
    const label = `${res.status}${code ? ` ${code}` : ""}`;
    stats.mgmt.add(label);
    if (res.status >= 500) stats.fiveXX.add(`management ${label}`);
    return { status: res.status, code };
  } catch (e) {
    const label = `no answer (${(e as Error).name})`;
    stats.mgmt.add(label);
    stats.fiveXX.add(`management ${label}`);
    return { status: 0, code: "" };
  }
}

/** An edge GET with a client-side timeout: status and error code. */
async function edge(inst: Instance, host: string, path: string) {
  try {
    const r = await Promise.race([
      edgeFetch(inst, host, path),
      sleep(15_000).then(() => null),
    ]);
    if (!r) throw new Error("timeout");
    let code = "";
    if (r.status >= 400) {
      try {
        code = JSON.parse(r.body)?.error?.code ?? "";
      } catch { /* not JSON */ }
    }
    const label = `${r.status}${code ? ` ${code}` : ""}`;
    stats.edge.add(label);
    if (r.status >= 500) stats.fiveXX.add(`edge ${label}`);
    return { status: r.status, code };
  } catch (e) {
    stats.edge.add("no answer");
    stats.fiveXX.add(`edge no answer (${(e as Error).message})`);
    return { status: 0, code: "" };
  }
}

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];

/** A tenant whose writes are acknowledged one at a time: the last acknowledged value must stay. */
type Writable = { slug: string; lastAck: number | null; acks: number; unackedSince: number[] };

async function writer(insts: Instance[], owner: Agent, w: Writable, end: number) {
  let v = 100;
  while (now() < end) {
    v++;
    const r = await call(pick(insts), owner, "PUT", `/api/tenants/${w.slug}/api-config`, {
      cacheTTL: v,
    });
    if (r.status === 200) (w.lastAck = v, w.acks++, w.unackedSince = []);
    else w.unackedSince.push(v); // may or may not have committed
    await sleep(1_500 + Math.random() * 500);
  }
}

type Created = { slug: string; ackAt: number };

async function creator(
  insts: Instance[],
  owner: Agent,
  created: Created[],
  end: number,
  up: string,
) {
  while (now() < end) {
    const slug = `soak-${crypto.randomUUID().slice(0, 8)}`;
    const r = await call(pick(insts), owner, "POST", "/api/tenants", {
      slug,
      cms: "generic",
      apiOrigin: up,
    });
    if (r.status === 201) created.push({ slug, ackAt: now() });
    await sleep(8_000);
  }
}

/** Instance i alone serves tenant usageSlugs[i]; it also checks tenants known to exist. */
async function edgeLoop(
  inst: Instance,
  usageSlug: string,
  answered: { n: number },
  existing: () => Created[],
  end: number,
) {
  for (let k = 0; now() < end; k++) {
    const r = await edge(inst, `${usageSlug}.localhost:8000`, `/~api/u${k % 40}`);
    if (r.status > 0 && r.code !== "unknown_tenant") answered.n++;
    if (k % 3 === 0) {
      const t = pick(existing());
      if (t) {
        const e = await edge(inst, `${t.slug}.localhost:8000`, `/~api/e${k % 10}`);
        const known = now() - t.ackAt >= 5;
        if (e.code === "unknown_tenant") known ? stats.existing404++ : stats.young404++;
        if (known) stats.existingChecks++;
      }
    }
    await sleep(EDGE_EVERY_MS);
  }
}

/** Every 5 s, a management read per instance: the times it failed to answer 200. */
async function probeLoop(
  insts: Instance[],
  owner: Agent,
  slug: string,
  fails: number[][],
  end: number,
) {
  while (now() < end) {
    await Promise.all(insts.map(async (inst, i) => {
      const r = await call(inst, owner, "GET", `/api/tenants/${slug}`);
      if (r.status !== 200) fails[i].push(now());
    }));
    await sleep(5_000);
  }
}

async function loadLoop(end: number) {
  while (now() < end + 30) {
    stats.load.push(Number((await Deno.readTextFile("/proc/loadavg")).split(" ")[0]));
    await sleep(30_000);
  }
}

/** The schedule of faults, in seconds from the start of traffic. */
async function faults(
  world: World,
  bouncer: { cur: Bouncer },
  restartBouncer: () => Promise<void>,
) {
  const kv = world.env.KV_PATH;
  const copy = `${world.dir}/kv-backup.sqlite3`;
  const fault = (what: string) => (stats.faults.push({ at: Math.round(now()), what }), log(what));
  const freeze = async (s: number) => {
    fault(`pgbouncer SIGSTOP for ${s} s`);
    bouncer.cur.child.kill("SIGSTOP");
    await sleep(s * 1000);
    bouncer.cur.child.kill("SIGCONT");
    log("pgbouncer SIGCONT");
  };
  const at = async (s: number) => {
    const wait = s - now();
    if (wait > 0) await sleep(wait * 1000);
  };
  const scale = MINUTES / 11;
  await at(45 * scale);
  backupKv(kv, copy);
  log("KV backup taken");
  await at(90 * scale);
  await freeze(12);
  await at(180 * scale);
  fault("KV restored from the backup taken at 45 s");
  await restoreKv(copy, kv);
  await at(270 * scale);
  await freeze(12);
  await at(330 * scale);
  backupKv(kv, copy);
  log("KV backup taken");
  await at(390 * scale);
  fault("pgbouncer SIGKILLed and restarted");
  await restartBouncer();
  await at(450 * scale);
  fault("KV restored from the backup taken at 330 s");
  await restoreKv(copy, kv);
  await at(510 * scale);
  await freeze(20);
}

async function main() {
  const base = Deno.env.get("TEST_DATABASE_URL");
  if (!base) throw new Error("TEST_DATABASE_URL is not set");
  const world = await sharedWorld(base, "cachely_soak");
  const pgbLog = `/tmp/cachely_soak_pgbouncer_${Date.now()}.log`;
  await Deno.writeTextFile(pgbLog, "");
  await Deno.chmod(pgbLog, 0o666);
  const ini = `server_login_retry = 2\nquery_wait_timeout = 10\nlogfile = ${pgbLog}\n` +
    `admin_users = postgres\nstats_users = postgres\n`;
  const first = await startPgbouncer(world.dir, new URL(world.url), ini);
  if (!first) throw new Error("pgbouncer is not installed");
  const bouncer = { cur: first as Bouncer };
  const restartBouncer = async () => {
    bouncer.cur.child.kill("SIGKILL");
    await bouncer.cur.child.status;
    const args = Deno.uid() === 0
      ? ["-u", "postgres", `${world.dir}/pgbouncer.ini`]
      : [`${world.dir}/pgbouncer.ini`];
    const child = new Deno.Command("/usr/sbin/pgbouncer", { args, stdout: "null", stderr: "null" })
      .spawn();
    bouncer.cur = { url: first.url, child };
  };
  const upstream = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => Response.json({ path: new URL(req.url).pathname, at: Date.now() }),
  );
  const up = `http://127.0.0.1:${upstream.addr.port}`;
  const env = {
    ...world.env,
    DATABASE_URL: first.url,
    MIGRATION_DATABASE_URL: world.url.toString(),
    QUOTAS: "off",
    USAGE_FLUSH_INTERVAL_MS: "5000",
  };
  const insts: Instance[] = [];
  for (let i = 0; i < 4; i++) insts.push(await startInstance(env));
  log(`4 instances on ports ${insts.map((i) => i.port).join(", ")}; pgbouncer ${first.url}`);
  const owner = await signUp(insts[0]);
  const mk = async (prefix: string) => {
    const slug = `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
    const r = await call(insts[0], owner, "POST", "/api/tenants", {
      slug,
      cms: "generic",
      apiOrigin: up,
    });
    if (r.status !== 201) throw new Error(`create ${slug}: ${r.status}`);
    return slug;
  };
  const usageSlugs = [await mk("use0"), await mk("use1"), await mk("use2"), await mk("use3")];
  const writables: Writable[] = [];
  for (let i = 0; i < 6; i++) {
    writables.push({ slug: await mk("w"), lastAck: null, acks: 0, unackedSince: [] });
  }
  const created: Created[] = writables.map((w) => ({ slug: w.slug, ackAt: now() }));
  await sleep(3_000);
  const answered = insts.map(() => ({ n: 0 }));
  const fails = insts.map(() => [] as number[]);
  const end = MINUTES * 60;
  const faultsDone = faults(world, bouncer, restartBouncer);
  await Promise.all([
    ...writables.map((w) => writer(insts, owner, w, end)),
    creator(insts, owner, created, end, up),
    ...insts.map((inst, i) => edgeLoop(inst, usageSlugs[i], answered[i], () => created, end)),
    probeLoop(insts, owner, writables[0].slug, fails, end),
    loadLoop(end),
    faultsDone,
  ]);
  log("traffic over; stopping the instances (SIGTERM)");
  const exits = await Promise.all(insts.map(async (inst) => {
    const s = performance.now();
    inst.child.kill("SIGTERM");
    const code = await inst.exited;
    return { code, ms: Math.round(performance.now() - s) };
  }));
  const report = await verify(world, {
    usageSlugs,
    answered,
    writables,
    created,
    fails,
    exits,
    pgbLog,
    bouncer,
  });
  const text = JSON.stringify(report, null, 2);
  console.log(text);
  if (OUT) await Deno.writeTextFile(OUT, text + "\n");
  bouncer.cur.child.kill("SIGTERM");
  await bouncer.cur.child.status;
  await upstream.shutdown();
  await world.close();
}

type Run = {
  usageSlugs: string[];
  answered: { n: number }[];
  writables: Writable[];
  created: Created[];
  fails: number[][];
  exits: { code: number; ms: number }[];
  pgbLog: string;
  bouncer: { cur: Bouncer };
};

async function verify(world: World, run: Run) {
  const sql = postgres(world.url.toString(), { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<
      { slug: string; cache_ttl: number }[]
    >`SELECT slug, cache_ttl FROM tenants`;
    const bySlug = new Map(rows.map((r) => [r.slug, r.cache_ttl]));
    const lostCreates = run.created.filter((c) => !bySlug.has(c.slug)).map((c) => c.slug);
    const lostUpdates = run.writables.filter((w) =>
      w.lastAck !== null && bySlug.get(w.slug) !== w.lastAck &&
      !w.unackedSince.includes(bySlug.get(w.slug)!)
    ).map((w) => `${w.slug}: acked ${w.lastAck}, found ${bySlug.get(w.slug)}`);
    const acked = run.created.length + run.writables.reduce((n, w) => n + w.acks, 0);
    const usage = await sql<
      { slug: string; n: string }[]
    >`SELECT t.slug, coalesce(sum(u.requests), 0) AS n
      FROM tenants t LEFT JOIN usage_daily u ON u.tenant_id = t.id
      WHERE t.slug IN ${sql(run.usageSlugs)} GROUP BY t.slug`;
    const counted = new Map(usage.map((u) => [u.slug, Number(u.n)]));
    const lastFault = Math.max(...stats.faults.map((f) => f.at));
    const pgbText = await Deno.readTextFile(run.pgbLog).catch(() => "");
    const alive = await Promise.race([
      run.bouncer.cur.child.status.then(() => false),
      sleep(100).then(() => true),
    ]);
    return {
      minutes: MINUTES,
      faults: stats.faults,
      ackedWrites: acked,
      lostCreates,
      lostUpdates,
      wedged: run.fails.map((f, i) => ({
        instance: i,
        failedProbes: f.length,
        failedProbesAfterLastFaultPlus30s: f.filter((t) => t > lastFault + 30).length,
      })),
      usagePerInstance: run.usageSlugs.map((s, i) => ({
        instance: i,
        answered: run.answered[i].n,
        counted: counted.get(s) ?? 0,
      })),
      existingTenant404: {
        checks: stats.existingChecks,
        unknownTenant: stats.existing404,
        youngerThan5s: stats.young404,
      },
      management: stats.mgmt.obj(),
      edge: stats.edge.obj(),
      fiveXXByCause: stats.fiveXX.obj(),
      shutdown: run.exits,
      pgbouncer: {
        aliveAtEnd: alive,
        ...cancelsSeen(pgbText),
        crashes: pgbText.split("\n").filter((l) => /FATAL|segfault|assert/i.test(l)).slice(0, 5),
      },
      loadAverage1m: stats.load,
    };
  } finally {
    await sql.end();
  }
}

/** Cancel requests pgbouncer received (one "(nouser)" line each), and the most in one second. */
function cancelsSeen(log: string) {
  const lines = log.split("\n").filter((l) => /\(nouser\).*cancel request/.test(l));
  const perSecond = new Tally();
  for (const l of lines) perSecond.add(l.slice(0, 19));
  return { cancels: lines.length, maxCancelsInOneSecond: Math.max(0, ...perSecond.m.values()) };
}

if (import.meta.main) await main();
