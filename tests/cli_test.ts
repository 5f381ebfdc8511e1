// deno-lint-ignore-file no-explicit-any -- JSON answers are read loosely
/**
 * The CLI end to end: the real program on a loopback port, the CLI run as a
 * subprocess (`deno run -A cli.ts …`) the way an operator or CI script runs it.
 */
import { assert, assertEquals } from "./assert.ts";
import { createTenant, dbTest, serveOnLoopback, signUp, tenantIdOf } from "./harness.ts";
import { seedUsageDays } from "./fakes/usage_rows.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const PASSWORD = "correct horse battery"; // harness signUp's password

type Run = { code: number; stdout: string; stderr: string; json: any };

/** Runs the CLI with only the environment given (plus PATH), stdin from `input`. */
async function cli(
  args: string[],
  opts: { env?: Record<string, string>; input?: string; cwd?: string } = {},
): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CLI, ...args],
    cwd: opts.cwd,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      DENO_DIR: Deno.env.get("DENO_DIR") ?? "",
      NO_COLOR: "1",
      ...opts.env,
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  if (opts.input !== undefined) await w.write(new TextEncoder().encode(opts.input));
  await w.close();
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch { /* not JSON */ }
  return { code: out.code, stdout, stderr: new TextDecoder().decode(out.stderr), json };
}

function expectCode(r: Run, code: number) {
  assertEquals(r.code, code, `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
}

dbTest(
  "cli: login stores a 0600 token, then every remote command works over the JSON API",
  async (app) => {
    const server = serveOnLoopback(app.handler as Deno.ServeHandler);
    const home = await Deno.makeTempDir();
    const env = { CACHELY_CONFIG_DIR: `${home}/cfg` };
    try {
      const owner = await signUp(app);

      // A missing login says how to log in.
      const none = await cli(["tenants", "list"], { env });
      expectCode(none, 1);
      assert(none.stderr.includes("deno task cli login <url>"), none.stderr);

      // A wrong password: the server's message, exit 1, nothing stored.
      const bad = await cli(["login", server.url, "--email", owner.email], {
        env,
        input: "wrong password\n",
      });
      expectCode(bad, 1);
      assert(bad.stderr.includes("Invalid email or password"), bad.stderr);

      const login = await cli(["login", server.url, "--email", owner.email, "--json"], {
        env,
        input: PASSWORD + "\n",
      });
      expectCode(login, 0);
      const credFile = `${home}/cfg/credentials.json`;
      assertEquals((await Deno.stat(credFile)).mode! & 0o777, 0o600);
      const stored = JSON.parse(await Deno.readTextFile(credFile));
      assert(stored.token.startsWith("cly_pat_"));
      assertEquals(stored.url, server.url);

      const who = await cli(["whoami", "--json"], { env });
      expectCode(who, 0);
      assertEquals(who.json.email, owner.email);

      // tenants
      expectCode(
        await cli([
          "tenants",
          "create",
          "cli-shop",
          "--cms",
          "generic",
          "--origin-url",
          "https://assets.example.com",
          "--cache-ttl",
          "90",
        ], {
          env,
        }),
        0,
      );
      const list = await cli(["tenants", "list", "--json"], { env });
      expectCode(list, 0);
      assertEquals(list.json.tenants.map((t: any) => t.key), ["cli-shop"]);
      const shown = await cli(["tenants", "show", "cli-shop", "--json"], { env });
      assertEquals([shown.json.slug, shown.json.cacheTTL, shown.json.role], [
        "cli-shop",
        90,
        "owner",
      ]);
      const cf = await cli([
        "tenants",
        "create",
        "cli-cf",
        "--cms",
        "contentful",
        "--space-id",
        "abc123xyz",
        "--json",
      ], { env });
      expectCode(cf, 0);
      const cfShown = await cli(["config", "get", "cli-cf", "apiOrigin"], { env });
      assertEquals(cfShown.stdout.trim(), "https://cdn.contentful.com/spaces/abc123xyz");
      expectCode(await cli(["tenants", "delete", "cli-cf", "--yes"], { env }), 0);
      const dup = await cli([
        "tenants",
        "create",
        "cli-shop",
        "--cms",
        "generic",
        "--origin-url",
        "https://assets.example.com",
      ], { env });
      expectCode(dup, 1);
      assert(/already/i.test(dup.stderr) && dup.stderr.includes("409"), dup.stderr);
      expectCode(await cli(["tenants", "create", "x-shop"], { env }), 2); // --cms missing

      // config get|set
      expectCode(
        await cli(["config", "set", "cli-shop", "cacheTTL=120", "siteProxy=false"], { env }),
        0,
      );
      const ttl = await cli(["config", "get", "cli-shop", "cacheTTL"], { env });
      assertEquals(ttl.stdout.trim(), "120");
      const soon = await cli(["config", "set", "cli-shop", "cacheTTL=soon"], { env });
      expectCode(soon, 1); // the server names the field
      assert(soon.stderr.includes("cacheTTL"), soon.stderr);
      const nope = await cli(["config", "set", "cli-shop", "nope=1"], { env });
      expectCode(nope, 1);
      assert(nope.stderr.includes("nope"), nope.stderr);
      expectCode(await cli(["config", "set", "cli-shop", "token=abc"], { env }), 2);
      expectCode(await cli(["config", "set", "cli-shop", "cacheTTL"], { env }), 2);
      const rejected = await cli(["config", "set", "cli-shop", "apiAuthHeader=bad header"], {
        env,
      });
      expectCode(rejected, 1);
      assert(rejected.stderr.includes("apiAuthHeader"), rejected.stderr);

      // token set: from stdin, never echoed
      const tok = await cli(["token", "set", "cli-shop", "--json"], {
        env,
        input: "s3cret-upstream-token\n",
      });
      expectCode(tok, 0);
      assert(!tok.stdout.includes("s3cret") && !tok.stderr.includes("s3cret"));
      const after = await cli(["config", "get", "cli-shop", "hasToken"], { env });
      assertEquals(after.stdout.trim(), "true");
      expectCode(await cli(["token", "set", "cli-shop", "s3cret"], { env }), 2); // never an argument

      // purge
      const purge = await cli(["purge", "cli-shop", "api", "--json"], { env });
      expectCode(purge, 0);
      assertEquals(purge.json.versions.apiCacheVersion, shown.json.apiCacheVersion + 1);
      expectCode(await cli(["purge", "cli-shop", "everything"], { env }), 2);

      // rules
      const rule = await owner.post("/api/tenants/cli-shop/ai-transform/rules", {
        presetId: "shorten",
        fieldSelector: "title",
        profile: "short",
      });
      assertEquals(rule.status, 201, rule.text);
      const activated = await cli(
        ["rules", "activate", "cli-shop", String(rule.body.id), "--json"],
        {
          env,
        },
      );
      assertEquals(activated.json.status, "active");
      const paused = await cli(["rules", "pause", "cli-shop", String(rule.body.id), "--json"], {
        env,
      });
      assertEquals(paused.json.status, "paused");
      const rules = await cli(["rules", "list", "cli-shop", "--json"], { env });
      assertEquals(rules.json.rules.map((r: any) => r.status), ["paused"]);
      const noRule = await cli(["rules", "activate", "cli-shop", "999"], { env });
      expectCode(noRule, 1);
      assert(noRule.stderr.includes("not found"), noRule.stderr);

      // experiments
      const exp = await owner.post("/api/tenants/cli-shop/ai-experiments", {
        name: "Hero copy",
        routePattern: "/~api/entries",
        variants: [{ key: "control" }, { key: "b" }],
      });
      assertEquals(exp.status, 201, exp.text);
      const exps = await cli(["experiments", "list", "cli-shop", "--json"], { env });
      assertEquals(exps.json.experiments.map((e: any) => e.name), ["Hero copy"]);
      const results = await cli([
        "experiments",
        "results",
        "cli-shop",
        String(exp.body.id),
        "--json",
      ], {
        env,
      });
      expectCode(results, 0);
      assertEquals(results.json.experimentId, exp.body.id);
      expectCode(await cli(["experiments", "results", "cli-shop", "999"], { env }), 1);

      // usage
      const usage = await cli(["usage", "cli-shop", "--month", "2026-01", "--json"], { env });
      expectCode(usage, 0);
      assertEquals(usage.json.current.period, "2026-01");
      // sizes in decimal units, as plans are sold: 5 GB is "5.00 GB", not 4.66
      await seedUsageDays(app, await tenantIdOf(app, "cli-shop"), [
        { day: "2026-01-10", requests: 3, bytes: 5_000_000_000 },
      ]);
      const human = await cli(["usage", "cli-shop", "--month", "2026-01"], { env });
      assert(human.stdout.includes("5.00 GB"), human.stdout);
      expectCode(await cli(["usage", "cli-shop", "--month", "January"], { env }), 2);

      // domains
      const added = await cli(["domains", "add", "cli-shop", "www.cli-shop.example"], { env });
      expectCode(added, 0);
      assert(added.stdout.includes("TXT"), added.stdout);
      const verify = await cli(
        ["domains", "verify", "cli-shop", "www.cli-shop.example", "--json"],
        {
          env,
        },
      );
      expectCode(verify, 1); // DNS is not set up: not verified
      assertEquals(verify.json.status, "failed");

      // tenant isolation: another user's tenant is a 404 with the server's message
      const other = await signUp(app);
      await createTenant(other, { slug: "not-mine" });
      const foreign = await cli(["tenants", "show", "not-mine"], { env });
      expectCode(foreign, 1);
      assert(foreign.stderr.includes("Tenant not found"), foreign.stderr);

      // delete needs confirmation without a terminal
      expectCode(await cli(["tenants", "delete", "cli-shop"], { env }), 2);
      expectCode(await cli(["tenants", "delete", "cli-shop", "--yes"], { env }), 0);

      // logout revokes the token this CLI created
      expectCode(await cli(["logout"], { env }), 0);
      const tokens = await owner.get("/api/user/tokens");
      assertEquals(tokens.body.tokens.length, 0);
      expectCode(await cli(["whoami"], { env }), 1);
    } finally {
      await server.close();
      await Deno.remove(home, { recursive: true });
    }
  },
);

dbTest(
  "cli: CACHELY_URL and CACHELY_TOKEN work without login; a revoked token fails with exit 1",
  async (app) => {
    const server = serveOnLoopback(app.handler as Deno.ServeHandler);
    const home = await Deno.makeTempDir();
    try {
      const owner = await signUp(app);
      const pat = await owner.post("/api/user/tokens", { name: "ci" });
      const env = {
        CACHELY_CONFIG_DIR: `${home}/none`,
        CACHELY_URL: server.url,
        CACHELY_TOKEN: pat.body.token,
      };
      const who = await cli(["whoami", "--json"], { env });
      expectCode(who, 0);
      assertEquals(who.json.email, owner.email);
      await createTenant(owner, { slug: "ci-shop" });
      const list = await cli(["tenants", "list"], { env });
      assert(list.stdout.includes("ci-shop"), list.stdout);
      // Nothing was written: no login happened.
      assertEquals([...Deno.readDirSync(home)].length, 0);

      await owner.delete(`/api/user/tokens/${pat.body.id}`);
      const revoked = await cli(["whoami", "--json"], { env });
      expectCode(revoked, 1);
      const err = JSON.parse(revoked.stderr);
      assertEquals([err.error.status, err.error.message], [401, "Invalid or revoked token"]);
    } finally {
      await server.close();
      await Deno.remove(home, { recursive: true });
    }
  },
);

dbTest(
  "cli: experiments results judges the experiment's own goal; rates as fixed percentages",
  async (app) => {
    const server = serveOnLoopback(app.handler as Deno.ServeHandler);
    const home = await Deno.makeTempDir();
    try {
      const owner = await signUp(app);
      const pat = await owner.post("/api/user/tokens", { name: "ci" });
      const env = {
        CACHELY_CONFIG_DIR: `${home}/none`,
        CACHELY_URL: server.url,
        CACHELY_TOKEN: pat.body.token,
      };
      await createTenant(owner, { slug: "exp-shop" });
      const tid = await tenantIdOf(app, "exp-shop");
      const make = async (name: string, guardrails: unknown) => {
        const r = await owner.post("/api/tenants/exp-shop/ai-experiments", {
          name,
          routePattern: "/~api/entries",
          variants: [{ key: "control" }, { key: "b" }],
          ...(guardrails ? { guardrails } : {}),
        });
        assertEquals(r.status, 201, r.text);
        const [a, b] = r.body.variants;
        // 3 of 7 and 1 of 3 visitors sent "signup": 42.857…% and 33.333…%
        await app.services.dbHandle.exec(
          `INSERT INTO exposure_counts (tenant_id, experiment_id, variant_id, variant_key, exposures)
         VALUES (${tid}, ${r.body.id}, ${a.id}, '${a.key}', 7), (${tid}, ${r.body.id}, ${b.id}, '${b.key}', 3);
         INSERT INTO experiment_events (tenant_id, experiment_id, variant_id, variant_key, event_name)
         SELECT ${tid}, ${r.body.id}, ${a.id}, '${a.key}', 'signup' FROM generate_series(1, 3);
         INSERT INTO experiment_events (tenant_id, experiment_id, variant_id, variant_key, event_name)
         VALUES (${tid}, ${r.body.id}, ${b.id}, '${b.key}', 'signup')`,
        );
        return r.body.id as number;
      };
      const withGoal = await make("Signups", { goal: "signup" });
      const json = await cli(["experiments", "results", "exp-shop", String(withGoal), "--json"], {
        env,
      });
      expectCode(json, 0);
      assertEquals(json.json.goalEventName, "signup");
      const human = await cli(["experiments", "results", "exp-shop", String(withGoal)], { env });
      expectCode(human, 0);
      const rows = human.stdout.trim().split("\n").slice(2);
      assertEquals(rows.length, 2, human.stdout);
      for (const row of rows) {
        const rates = row.match(/\d+(\.\d+)? %/g) ?? [];
        assertEquals(rates.length, 3, `split, expected split, conversion: ${row}`);
        for (const r of rates) assert(/^\d+\.\d{2} %$/.test(r), `two decimals: ${r}`);
      }
      assert(rows[0].includes("42.86 %") && rows[1].includes("33.33 %"), human.stdout);

      // No goal anywhere: no conversion against an event nobody named.
      const noGoal = await make("No goal", null);
      const bare = await cli(["experiments", "results", "exp-shop", String(noGoal)], { env });
      expectCode(bare, 0);
      assert(!bare.stdout.includes("homepage_hero_cta_click"), bare.stdout);
      assert(bare.stdout.includes("--goal"), bare.stdout);
      const flagged = await cli(
        ["experiments", "results", "exp-shop", String(noGoal), "--goal", "signup", "--json"],
        { env },
      );
      assertEquals(flagged.json.goalEventName, "signup");
    } finally {
      await server.close();
      await Deno.remove(home, { recursive: true });
    }
  },
);

dbTest("cli: logs --follow prints entries as they are written", async (app) => {
  const server = serveOnLoopback(app.handler as Deno.ServeHandler);
  try {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const tenantId = await tenantIdOf(app, slug);
    const pat = await owner.post("/api/user/tokens", { name: "ci" });
    const insert = (path: string) =>
      app.services.dbHandle.exec(
        `INSERT INTO request_logs (tenant_id, method, path, status, bytes, cache, kind)
         VALUES (${tenantId}, 'GET', '${path}', 200, 10, 'HIT', 'api')`,
      );
    await insert("/~api/old");
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", CLI, "logs", slug, "--follow", "--interval", "1", "--json"],
      env: {
        CACHELY_URL: server.url,
        CACHELY_TOKEN: pat.body.token,
        CACHELY_CONFIG_DIR: "/nonexistent",
      },
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    const next = async () => {
      while (!buf.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) throw new Error("logs --follow ended early");
        buf += value;
      }
      const i = buf.indexOf("\n");
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      return JSON.parse(line);
    };
    try {
      assertEquals((await next()).path, "/~api/old");
      await insert("/~api/new-1");
      await insert("/~api/new-2");
      assertEquals((await next()).path, "/~api/new-1");
      assertEquals((await next()).path, "/~api/new-2");
    } finally {
      child.kill("SIGTERM");
      await lines.cancel().catch(() => {});
      await child.status;
    }
  } finally {
    await server.close();
  }
});

Deno.test("cli: --help of every command exits 0 and writes nothing to disk", async () => {
  const { COMMANDS } = await import("../cli/main.ts");
  const dir = await Deno.makeTempDir();
  try {
    // DATA_DIR defaults to ./.data and the config dir is under it: both must stay untouched.
    const env = { CACHELY_CONFIG_DIR: `${dir}/cfg` };
    const runs = [["--help"], ["help"], ...COMMANDS.map((c) => [...c.path, "--help"])];
    for (let i = 0; i < runs.length; i += 6) {
      const batch = await Promise.all(runs.slice(i, i + 6).map((a) => cli(a, { env, cwd: dir })));
      for (const r of batch) {
        expectCode(r, 0);
        assert(r.stdout.startsWith("usage:") || r.stdout.startsWith("Cachely"), r.stdout);
      }
    }
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), []);
    // No command at all: usage on stderr, exit 2.
    const bare = await cli([], { env, cwd: dir });
    expectCode(bare, 2);
    assert(bare.stderr.includes("usage:"));
    expectCode(await cli(["frobnicate"], { env, cwd: dir }), 2);
    expectCode(await cli(["tenants", "list", "--colour"], { env, cwd: dir }), 2);
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A database the CLI can reach by env: an embedded data dir, or a fresh PostgreSQL database. */
async function localDatabases(): Promise<
  { name: string; env: Record<string, string>; cleanup(): Promise<void> }[]
> {
  const dir = await Deno.makeTempDir();
  const out = [{
    name: "embedded",
    env: { DATA_DIR: dir } as Record<string, string>,
    cleanup: () => Deno.remove(dir, { recursive: true }),
  }];
  const base = Deno.env.get("TEST_DATABASE_URL");
  if (base) {
    const { default: postgres } = await import("postgres");
    const name = `cachely_cli_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    out.push({
      name: "postgres",
      env: {
        DATABASE_URL: url.toString(),
        ENCRYPTION_KEY: btoa("0123456789abcdef0123456789abcdef"),
      },
      async cleanup() {
        const a = postgres(base, { max: 1, onnotice: () => {} });
        await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await a.end();
      },
    });
  }
  return out;
}

Deno.test({
  name: "cli: migrate applies migrations once; admin grant makes a registered user a master admin",
  sanitizeResources: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeOps: false,
  async fn() {
    const { openDb } = await import("../lib/db/client.ts");
    const { listMigrations } = await import("../lib/db/migrate.ts");
    const all = (await listMigrations()).map((m) => m.name);
    for (const db of await localDatabases()) {
      try {
        const first = await cli(["migrate", "--json"], { env: db.env });
        expectCode(first, 0);
        assertEquals(first.json.applied, all, db.name);
        const again = await cli(["migrate", "--json"], { env: db.env });
        assertEquals(again.json.applied, [], db.name);

        const missing = await cli(["admin", "grant", "ops@example.com"], { env: db.env });
        expectCode(missing, 1);
        assert(missing.stderr.includes("No user with email ops@example.com"), missing.stderr);

        const open = () =>
          openDb(
            db.env.DATABASE_URL
              ? { url: db.env.DATABASE_URL }
              : { dataDir: `${db.env.DATA_DIR}/pg` },
            false,
          );
        let h = await open();
        await h.exec(
          `INSERT INTO users (id, email, password_hash) VALUES ('u1', 'ops@example.com', 'x')`,
        );
        await h.close();
        expectCode(await cli(["admin", "grant", "Ops@Example.com"], { env: db.env }), 0);
        h = await open();
        const [row] = await h.query<{ master_admin: boolean }>(
          "SELECT master_admin FROM users WHERE id = 'u1'",
        );
        await h.close();
        assertEquals(row.master_admin, true, db.name);
      } finally {
        await db.cleanup();
      }
    }
  },
});

dbTest("a user granted in the database is a master admin without ADMIN_EMAILS", async (app) => {
  const u = await signUp(app);
  assertEquals((await u.get("/api/admin/overview")).status, 403);
  await app.services.dbHandle.exec(
    `UPDATE users SET master_admin = true WHERE id = '${u.userId}'`,
  );
  assertEquals((await u.get("/api/auth/me")).body.user.isAdmin, true);
  assertEquals((await u.get("/api/admin/overview")).status, 200);
});
