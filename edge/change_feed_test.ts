/**
 * The change feed across processes on one local KV file: a snapshot written by another
 * process reaches this one's feed within a few polls. kv.watch() on the same key is
 * observed alongside and reported: it is why the feed polls on a local file.
 */
import { assert, assertEquals } from "../tests/assert.ts";
import { startChangeFeed } from "./change_feed.ts";
import { announceChange, type Change } from "../lib/kv/changes.ts";
import { kvKeys } from "../lib/kv/keys.ts";
import { createLogger } from "../lib/log.ts";

const SNAPSHOT_MODULE = new URL("../lib/kv/snapshot.ts", import.meta.url).href;

Deno.test({
  name: "change feed: a write by another process is seen within 250 ms",
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const path = `${dir}/kv.sqlite3`;
    const kv = await Deno.openKv(path);
    const got: { change: Change; at: number }[] = [];
    let gaps = 0;
    const feed = startChangeFeed(kv, {
      pollMs: 50,
      watch: false,
      onChange: (change) => got.push({ change, at: Date.now() }),
      onGap: () => gaps++,
      log: createLogger("error"),
    });
    let watched = 0;
    const watch = kv.watch([kvKeys.changeBell()]);
    (async () => {
      for await (const _ of watch) watched++;
    })().catch(() => {});
    try {
      await new Promise((r) => setTimeout(r, 200)); // the feed has read the bell once
      const writer = new Deno.Command(Deno.execPath(), {
        args: [
          "eval",
          `const { writeSnapshot, deleteSnapshot } = await import(${
            JSON.stringify(SNAPSHOT_MODULE)
          });
           const kv = await Deno.openKv(${JSON.stringify(path)});
           await writeSnapshot(kv, { v: 1, slug: "acme", tenantId: 1, domains: [] });
           await deleteSnapshot(kv, "gone");
           console.log(Date.now());
           kv.close();`,
        ],
        stdout: "piped",
        stderr: "inherit",
      });
      const out = await writer.output();
      assertEquals(out.code, 0);
      const wroteAt = Number(new TextDecoder().decode(out.stdout));
      const deadline = Date.now() + 2_000;
      while (got.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assertEquals(got.map((g) => g.change).sort((x, y) => x.id.localeCompare(y.id)), [
        { kind: "tenant", id: "acme" },
        { kind: "tenant", id: "gone" },
      ]);
      const lag = Math.max(...got.map((g) => g.at)) - wroteAt;
      assert(lag <= 250, `seen ${lag} ms after the write`);
      assertEquals(gaps, 0);
      await new Promise((r) => setTimeout(r, 500));
      console.log(
        `change_feed_test: feed saw the other process's writes after ${lag} ms; kv.watch() ` +
          `notified ${watched - 1} time(s) for them (initial value excluded)`,
      );
    } finally {
      feed.stop();
      await watch.cancel().catch(() => {});
      kv.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "change feed in watch mode (remote KV): a change is seen on the watch, not the slow poll",
  sanitizeOps: false, // the watch stream's op ends a turn after cancel()
  sanitizeResources: false,
  async fn() {
    // Local KV notifies watchers of writes made in this process, which is all this needs:
    // the feed's watch branch (what Deno Deploy and KV Connect run) with its poll at 1 s+.
    const kv = await Deno.openKv(":memory:");
    const got: { change: Change; at: number }[] = [];
    const feed = startChangeFeed(kv, {
      pollMs: 60_000,
      watch: true,
      onChange: (change) => got.push({ change, at: Date.now() }),
      onGap: () => {},
      log: createLogger("error"),
    });
    try {
      await new Promise((r) => setTimeout(r, 200)); // the first look reads the bell
      const lags: number[] = [];
      for (let i = 0; i < 5; i++) {
        const sent = Date.now();
        const id = `t${i}`;
        await announceChange(kv.atomic(), { kind: "tenant", id }).commit();
        while (!got.some((g) => g.change.id === id) && Date.now() - sent < 3_000) {
          await new Promise((r) => setTimeout(r, 5));
        }
        const seen = got.find((g) => g.change.id === id);
        assert(seen, `change ${id} not seen within 3 s (the poll is 60 s: the watch is dead)`);
        lags.push(seen.at - sent);
      }
      assert(Math.max(...lags) < 500, `lags ${lags.join(", ")} ms`);
      assertEquals(got.map((g) => g.change.id), ["t0", "t1", "t2", "t3", "t4"]);
    } finally {
      feed.stop();
      kv.close();
    }
  },
});
