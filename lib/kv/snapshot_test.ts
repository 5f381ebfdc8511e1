import { assertEquals } from "../../tests/assert.ts";
import {
  deleteSnapshot,
  type EdgeSnapshot,
  readHostRoute,
  readSnapshot,
  storedGeneration,
  writeSnapshot,
} from "./snapshot.ts";
import { EMPTY_AI_SNAPSHOT } from "../ai/snapshot_types.ts";

function snap(api: number, filler = ""): EdgeSnapshot {
  return {
    v: 1,
    builtAt: new Date(0).toISOString(),
    tenantId: 1,
    slug: "acme",
    cms: "generic",
    cloudName: null,
    cacheTtl: 60,
    api: { origin: null, authMode: "none", authParam: null, tokenEnc: null, previewParam: "p" },
    website: { origin: filler || null, siteProxy: false },
    versions: { api, assets: 1, html: 1 },
    domains: [],
    ai: structuredClone(EMPTY_AI_SNAPSHOT),
    experiments: [],
  };
}

Deno.test("writeSnapshot() never lets an older build overwrite a newer one", async () => {
  using kv = await Deno.openKv(":memory:");
  assertEquals(await writeSnapshot(kv, snap(2), 5), true);
  assertEquals(await writeSnapshot(kv, snap(1), 4), false); // finished last, read older state
  assertEquals((await readSnapshot(kv, "acme"))?.versions.api, 2);
  assertEquals(await storedGeneration(kv, "acme"), 5);
  assertEquals(await writeSnapshot(kv, snap(3), 6), true);
  assertEquals((await readSnapshot(kv, "acme"))?.versions.api, 3);
});

Deno.test("deleteSnapshot() leaves a tombstone an older build cannot overwrite, and unroutes hosts", async () => {
  using kv = await Deno.openKv(":memory:");
  const withDomain = { ...snap(1), domains: ["shop.example.com"] };
  await writeSnapshot(kv, withDomain, 1);
  assertEquals(await readHostRoute(kv, "shop.example.com"), "acme");
  assertEquals(await deleteSnapshot(kv, "acme", 3), true);
  assertEquals(await readSnapshot(kv, "acme"), null);
  assertEquals(await readHostRoute(kv, "shop.example.com"), null);
  assertEquals(
    await writeSnapshot(kv, withDomain, 2),
    false,
    "a build that read the tenant earlier",
  );
  assertEquals(await readSnapshot(kv, "acme"), null);
  assertEquals(await writeSnapshot(kv, snap(9), 4), true, "the slug used again");
  assertEquals((await readSnapshot(kv, "acme"))?.versions.api, 9);
});

Deno.test("writeSnapshot() routes added domains and unroutes dropped ones with the head", async () => {
  using kv = await Deno.openKv(":memory:");
  await writeSnapshot(kv, { ...snap(1), domains: ["a.example", "b.example"] }, 1);
  await writeSnapshot(kv, { ...snap(1), domains: ["b.example", "c.example"] }, 2);
  assertEquals(await readHostRoute(kv, "a.example"), null);
  assertEquals(await readHostRoute(kv, "b.example"), "acme");
  assertEquals(await readHostRoute(kv, "c.example"), "acme");
});

Deno.test("writeSnapshot() splits values over 64 KiB into chunks and reads them back whole", async () => {
  using kv = await Deno.openKv(":memory:");
  const big = "é".repeat(100_000); // 200 KB of UTF-8
  await writeSnapshot(kv, snap(1, big));
  assertEquals((await readSnapshot(kv, "acme"))?.website.origin, big);
  await writeSnapshot(kv, snap(2));
  let chunks = 0;
  for await (const _ of kv.list({ prefix: ["edge", "snapshot_chunk", "acme"] })) chunks++;
  assertEquals(chunks, 1, "the old chunks are deleted");
});
