/**
 * Open-ended byte ranges (`bytes=a-`, what Chrome's media player sends when it seeks) of
 * objects the edge does not hold whole, streamed from cached 1 MiB slices (edge/slices.ts
 * streamSlices): the answer, what the origin is asked, a visitor who stops reading over a
 * real socket, the end of the object, and an object that changes while it streams.
 */
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { assetBytes } from "./fakes/asset_host.ts";
import { bytesOf, imageHostFixture } from "./fakes/image_host_fixture.ts";
import { serveOnLoopback } from "./harness.ts";

const SIZE = 2_500_000; // slices 0-1048575, 1048576-2097151, 2097152-2499999
const PATH = `/video/upload/v1/clip_${SIZE}b.mp4`;
const UPSTREAM = `/demo${PATH}`;

Deno.test("an open-ended range streams from 1 MiB slices fetched once each, then from hits", async () => {
  await using t = await imageHostFixture();
  const whole = assetBytes(UPSTREAM, SIZE);
  const first = await t.fx.request(PATH, { headers: { range: "bytes=1048000-" } });
  assertEquals(first.status, 206);
  assertEquals(first.headers.get("content-range"), `bytes 1048000-2499999/${SIZE}`);
  assertEquals(first.headers.get("content-length"), String(SIZE - 1048000));
  assertEquals(first.headers.get("content-type"), "video/mp4");
  assertEquals(first.headers.get("x-cachely-cache"), "MISS");
  assertEquals(await bytesOf(first), whole.subarray(1048000));
  assertEquals(
    t.host.seen.map((s) => s.headers.get("range")),
    ["bytes=0-1048575", "bytes=1048576-2097151", "bytes=2097152-3145727"],
    "the origin was asked for the aligned slices, in order, not the visitor's range",
  );

  t.fx.clock.advance(3_000);
  const again = await t.fx.request(PATH, { headers: { range: "bytes=2000000-" } });
  assertEquals(again.status, 206);
  assertEquals(again.headers.get("x-cachely-cache"), "HIT");
  assertEquals(again.headers.get("age"), "3");
  assertEquals(again.headers.get("content-range"), `bytes 2000000-2499999/${SIZE}`);
  assertEquals(await bytesOf(again), whole.subarray(2_000_000));
  assertEquals(t.host.seen.length, 3, "served from the cached slices");
  // closed ranges share the slices
  const closed = await t.fx.request(PATH, { headers: { range: "bytes=10-19" } });
  assertEquals(closed.headers.get("x-cachely-cache"), "HIT");
  assertEquals(await bytesOf(closed), whole.subarray(10, 20));
  assertEquals(t.host.seen.length, 3);
  // usage counts the bytes sent to the visitor
  assertEquals(t.fx.usage.slice(-3).map((u) => u.bytes), [SIZE - 1048000, SIZE - 2000000, 10]);
});

/** The fixture's edge behind a real Deno.serve on loopback. */
function edgeServer(fx: Fixture["fx"]) {
  return serveOnLoopback((req) =>
    fx.edge.handle(req, { surface: "tenant", slug: fx.snapshot.slug }, { clientIp: "203.0.113.9" })
  );
}
type Fixture = Awaited<ReturnType<typeof imageHostFixture>>;

Deno.test("the cached slices stream the same bytes again and again over a real socket", async () => {
  await using t = await imageHostFixture();
  const server = edgeServer(t.fx);
  try {
    const whole = assetBytes(UPSTREAM, SIZE);
    for (const range of ["bytes=5-", "bytes=5-", "bytes=1048576-", "bytes=5-"]) {
      const r = await fetch(`${server.url}${PATH}`, { headers: { range } });
      const from = Number(range.slice(6, -1));
      assertEquals(await bytesOf(r), whole.subarray(from), range);
    }
    assertEquals(t.host.seen.length, 3, "one request per slice");
  } finally {
    await server.close();
  }
});

Deno.test("a visitor who pauses or leaves costs no further slices (real socket)", async () => {
  await using t = await imageHostFixture();
  const slices = 40;
  const size = slices * 1024 * 1024;
  const path = `/video/upload/v1/long_${size}b.mp4`;
  const server = edgeServer(t.fx);
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    const res = await fetch(`${server.url}${path}`, { headers: { range: "bytes=5-" } });
    assertEquals(res.status, 206);
    assertEquals(res.headers.get("content-length"), String(size - 5));
    reader = res.body!.getReader();
    const chunk = await reader.read();
    assert(!chunk.done && chunk.value.byteLength > 0);
    assertEquals(chunk.value.subarray(0, 16), assetBytes(`/demo${path}`, 21).subarray(5, 21));
    assertEquals(t.host.seen[0].headers.get("range"), "bytes=0-1048575", "a slice");
    // The visitor pauses: the server goes on only while the sockets' buffers take bytes
    // (loopback: a few MiB), one slice ahead of what it wrote.
    await new Promise((r) => setTimeout(r, 500));
    const paused = t.host.seen.length;
    assert(paused <= slices / 3, `the origin was asked for ${paused} of ${slices} slices`);
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 300)); // a pull that was under way settles
    const left = t.host.seen.length;
    await new Promise((r) => setTimeout(r, 300));
    assertEquals(t.host.seen.length, left, "nothing more once the visitor left");
    assert(left <= paused + 1);
  } finally {
    await reader?.cancel().catch(() => {}); // else the server's shutdown waits for the body
    await server.close();
  }
});

Deno.test("a closed range longer than the object bound streams from slices too", async () => {
  await using t = await imageHostFixture({ EDGE_CACHE_MAX_OBJECT_BYTES: String(1024 * 1024) });
  const whole = assetBytes(UPSTREAM, SIZE);
  // what Chrome asks after reading the index: up to the end of what it has, megabytes long
  const r = await t.fx.request(PATH, { headers: { range: "bytes=100-2200000" } });
  assertEquals(r.status, 206);
  assertEquals(r.headers.get("content-range"), `bytes 100-2200000/${SIZE}`);
  assertEquals(r.headers.get("content-length"), String(2200000 - 100 + 1));
  assertEquals(r.headers.get("x-cachely-cache"), "MISS");
  assertEquals(await bytesOf(r), whole.subarray(100, 2200001));
  assertEquals(t.host.seen.length, 3);
  // one that ends inside a slice, past the end: clamped
  const tail = await t.fx.request(PATH, { headers: { range: "bytes=5-9999999" } });
  assertEquals(tail.headers.get("content-range"), `bytes 5-${SIZE - 1}/${SIZE}`);
  assertEquals(tail.headers.get("x-cachely-cache"), "HIT");
  assertEquals(await bytesOf(tail), whole.subarray(5));
  assertEquals(t.host.seen.length, 3);
});

Deno.test("bytes=0- of an object its first slice shows over the bound streams from slices", async () => {
  await using t = await imageHostFixture({ EDGE_CACHE_MAX_OBJECT_BYTES: String(1024 * 1024) });
  const whole = assetBytes(UPSTREAM, SIZE);
  // nothing known yet: the whole-object path, streamed through from the origin
  const first = await t.fx.request(PATH, { headers: { range: "bytes=0-" } });
  assertEquals(first.headers.get("x-cachely-cache"), "BYPASS");
  await first.arrayBuffer();
  assertEquals(t.host.seen.at(-1)!.headers.get("range"), null);
  // a seek caches slice 0, whose total (2.5 MB) is over the 1 MiB bound
  await (await t.fx.request(PATH, { headers: { range: "bytes=100-199" } })).arrayBuffer();
  const before = t.host.seen.length;
  for (const cache of ["HIT", "HIT"]) {
    const r = await t.fx.request(PATH, { headers: { range: "bytes=0-" } });
    assertEquals(r.status, 206);
    assertEquals(r.headers.get("x-cachely-cache"), cache);
    assertEquals(r.headers.get("content-range"), `bytes 0-${SIZE - 1}/${SIZE}`);
    assertEquals(await bytesOf(r), whole);
  }
  assertEquals(
    t.host.seen.slice(before).map((s) => s.headers.get("range")),
    ["bytes=1048576-2097151", "bytes=2097152-3145727"],
    "the rest of the slices, once",
  );
  // a small object keeps the whole-object cache: its slice 0 is the whole of it
  const small = "/video/upload/v1/small_5000b.mp4";
  await (await t.fx.request(small, { headers: { range: "bytes=10-19" } })).arrayBuffer();
  const z = await t.fx.request(small, { headers: { range: "bytes=0-" } });
  assertEquals(z.headers.get("x-cachely-cache"), "MISS");
  await z.arrayBuffer();
  assertEquals(t.host.seen.at(-1)!.headers.get("range"), null, "fetched whole, to be cached");
});

Deno.test("an open-ended range at or past the end is 416 with the object's size", async () => {
  await using t = await imageHostFixture();
  // inside the last slice: the slice's total says where the object ends
  const past = await t.fx.request(PATH, { headers: { range: `bytes=${SIZE}-` } });
  assertEquals(past.status, 416);
  assertEquals(past.headers.get("content-range"), `bytes */${SIZE}`);
  await past.arrayBuffer();
  assertEquals(t.host.seen.map((s) => s.headers.get("range")), ["bytes=2097152-3145727"]);
  // beyond the last slice: the origin's 416 is passed on
  const beyond = await t.fx.request(PATH, { headers: { range: "bytes=9000000-" } });
  assertEquals(beyond.status, 416);
  assertEquals(beyond.headers.get("content-range"), `bytes */${SIZE}`);
  await beyond.arrayBuffer();
  // bytes=0- is a player's first request: the whole-object path, not slices
  const zero = await t.fx.request(PATH, { headers: { range: "bytes=0-" } });
  assertEquals(await bytesOf(zero), assetBytes(UPSTREAM, SIZE));
  assertEquals(t.host.seen.at(-1)!.headers.get("range"), null);
});

Deno.test("an origin that ignores Range: its whole 200 is passed on for an open-ended range too", async () => {
  await using t = await imageHostFixture();
  const path = `/video/upload/v1/norange/a_${SIZE}b.mp4`;
  const r = await t.fx.request(path, { headers: { range: "bytes=10-" } });
  assertEquals(r.status, 200);
  assertEquals(r.headers.get("x-cachely-cache"), "BYPASS");
  assertEquals((await bytesOf(r)).byteLength, SIZE);
  // the slice's answer itself was passed on, the visitor's range never asked for (the
  // client asks twice for a body it learns is over its buffer: edge/upstream_client.ts)
  assert(t.host.seen.every((s) => s.headers.get("range") === "bytes=0-1048575"));
});

Deno.test("a slice of another version ends the stream short and drops the slices it read", async () => {
  await using t = await imageHostFixture();
  await (await t.fx.request(PATH, { headers: { range: "bytes=0-9" } })).arrayBuffer();
  t.host.revision = 1; // the origin publishes a new version of the file
  const mixed = await t.fx.request(PATH, { headers: { range: "bytes=100-" } });
  assertEquals(mixed.status, 206);
  assertEquals(mixed.headers.get("x-cachely-cache"), "HIT", "the first slice was cached");
  await assertRejects(() => mixed.arrayBuffer());
  // the next request fetches one consistent set at the new version
  const fresh = await t.fx.request(PATH, { headers: { range: "bytes=100-" } });
  assertEquals(fresh.headers.get("x-cachely-cache"), "MISS");
  assertEquals(fresh.headers.get("etag"), `"${UPSTREAM.length}-${SIZE}-r1"`);
  assertEquals((await bytesOf(fresh)).byteLength, SIZE - 100);
});
