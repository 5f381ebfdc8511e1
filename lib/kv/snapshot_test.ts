import { assert, assertEquals } from "../../tests/assert.ts";
import {
  type EdgeSnapshot,
  nextSnapshotGeneration,
  readSnapshot,
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
  const older = await nextSnapshotGeneration(kv, "acme");
  const newer = await nextSnapshotGeneration(kv, "acme");
  assert(newer > older);
  assertEquals(await writeSnapshot(kv, snap(2), newer), true);
  assertEquals(await writeSnapshot(kv, snap(1), older), false); // finished last, read older state
  assertEquals((await readSnapshot(kv, "acme"))?.versions.api, 2);
  assertEquals(await writeSnapshot(kv, snap(3), await nextSnapshotGeneration(kv, "acme")), true);
  assertEquals((await readSnapshot(kv, "acme"))?.versions.api, 3);
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
