/**
 * The change feed across processes on one local KV file: a snapshot written by another
 * process reaches this one's feed within a few polls. kv.watch() on the same key is
 * observed alongside and reported: it is why the feed polls on a local file.
 */
import { assert, assertEquals } from "../tests/assert.ts";
import { startChangeFeed } from "./change_feed.ts";
import type { Change } from "../lib/kv/changes.ts";
import { kvKeys } from "../lib/kv/keys.ts";
import { createLogger } from "../lib/log.ts";

const SNAPSHOT_MODULE = new URL("../lib/kv/snapshot.ts", import.meta.url).href;

Deno.test({
  name: "change feed: a write by another process is seen within 250 ms",
  sanitizeOps: false,
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
