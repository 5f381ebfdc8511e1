/**
 * A frozen pooler: a real pgbouncer (transaction mode) in front of PostgreSQL, a real instance
 * (`deno run -A main.ts`) through it, then pgbouncer is stopped (SIGSTOP) for 12 s while
 * management requests keep arriving, and resumed (SIGCONT). Their statements miss the deadline
 * while it is frozen, so the app sends cancel requests it cannot read yet. After the resume:
 * pgbouncer must still be running (1.18 exited handling cancel requests whose socket the app had
 * already closed), the instance answers 200 again within seconds, and its pool is not wedged.
 * The cancel requests pgbouncer saw are counted from its log. Skips without pgbouncer or
 * TEST_DATABASE_URL.
 */
import { assert, assertEquals } from "./assert.ts";
import {
  type Instance,
  pgbouncerBinary,
  sharedWorld,
  signUp,
  startInstance,
  startPgbouncer,
  stop,
} from "./instances.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
const PGBOUNCER = pgbouncerBinary() !== undefined;
const SKIP = !BASE
  ? "TEST_DATABASE_URL is not set"
  : !PGBOUNCER
  ? "pgbouncer is not installed"
  : null;
if (SKIP) console.log(`pgbouncer_freeze_test: skipped: ${SKIP}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name: "pgbouncer frozen 12 s and resumed: it survives the cancels, the instance answers again",
  ignore: SKIP !== null,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_faults_freeze");
    const logfile = `${await Deno.makeTempDir()}/pgbouncer.log`;
    await Deno.writeTextFile(logfile, "");
    await Deno.chmod(logfile, 0o666);
    await Deno.chmod(logfile.slice(0, logfile.lastIndexOf("/")), 0o777);
    const bouncer = (await startPgbouncer(
      world.dir,
      new URL(world.url),
      `server_login_retry = 2\nquery_wait_timeout = 10\nlogfile = ${logfile}\n`,
    ))!;
    let bouncerExit: number | null = null;
    bouncer.child.status.then((s) => bouncerExit = s.code);
    let inst: Instance | null = null;
    try {
      inst = await startInstance({
        ...world.env,
        DATABASE_URL: bouncer.url,
        MIGRATION_DATABASE_URL: world.url.toString(),
        DB_REQUEST_TIMEOUT_MS: "2000",
      });
      const owner = await signUp(inst);
      const slug = `frz-${crypto.randomUUID().slice(0, 8)}`;
      const created = await owner.req(inst, "POST", "/api/tenants", {
        slug,
        cms: "generic",
        apiOrigin: "http://127.0.0.1:9",
      });
      assertEquals(created.status, 201, created.text);
      const get = () =>
        owner.req(inst!, "GET", `/api/tenants/${slug}`).catch((e) => ({
          status: 0,
          text: String(e),
        }));

      bouncer.child.kill("SIGSTOP");
      const during: number[] = [];
      const until = performance.now() + 12_000;
      while (performance.now() < until) {
        // Several at once: every connection of the pool has a statement sent and stuck.
        const rs = await Promise.all([get(), get(), get(), get(), get(), get()]);
        during.push(...rs.map((r) => r.status));
      }
      bouncer.child.kill("SIGCONT");
      const resumedAt = performance.now();
      let ok = 0;
      let last = { status: 0, text: "" };
      while (performance.now() - resumedAt < 30_000 && ok < 5) {
        last = await get();
        ok = last.status === 200 ? ok + 1 : 0;
        if (last.status !== 200) await sleep(250);
      }
      const recoveredMs = Math.round(performance.now() - resumedAt);
      await sleep(2_000); // what pgbouncer does with the cancels lands in its log by now
      const text = await Deno.readTextFile(logfile);
      // One "(nouser)" line per cancel request received (the cancel's own client).
      const cancels = text.split("\n").filter((l) => /\(nouser\).*cancel request/.test(l)).length;
      console.log(
        `pgbouncer_freeze_test: during the freeze ${during.length} answers ` +
          `(${during.filter((s) => s === 503).length} 503); back to 200 ${recoveredMs} ms ` +
          `after SIGCONT; pgbouncer received ${cancels} cancel requests`,
      );
      const fatal = text.split("\n").filter((l) => /FATAL/.test(l));
      assertEquals(fatal, [], "pgbouncer logged no FATAL");
      assertEquals(bouncerExit, null, "pgbouncer is still running after the resume");
      assertEquals(last.status, 200, `the instance answers again: ${last.text.slice(0, 200)}`);
      // Not wedged: a burst of reads all answer.
      const burst = await Promise.all(Array.from({ length: 12 }, get));
      assertEquals(burst.map((r) => r.status), burst.map(() => 200));
      const uncaught = inst.out.filter((l) => /uncaught/i.test(l));
      assertEquals(uncaught, []);
      assert(during.every((s) => s === 503 || s === 200), `answers during the freeze: ${during}`);
    } finally {
      try {
        bouncer.child.kill("SIGCONT");
      } catch { /* exited */ }
      if (inst) await stop(inst);
      try {
        bouncer.child.kill("SIGTERM");
      } catch { /* exited */ }
      await bouncer.child.status;
      await world.close();
    }
  },
});
