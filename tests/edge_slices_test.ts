/**
 * Closed byte ranges of objects the edge does not hold whole, served from cached 1 MiB
 * slices (edge/slices.ts): what the origin is asked, what the visitor gets, coalescing,
 * what is still forwarded, and an object that changes between two slice fetches. The
 * upstream is the fake asset host on loopback, reached through the edge's own HTTP client.
 */
import { assert, assertEquals } from "./assert.ts";
import { ASSET_LAST_MODIFIED, assetBytes } from "./fakes/asset_host.ts";
import { bytesOf, imageHostFixture } from "./fakes/image_host_fixture.ts";

const SIZE = 2_500_000; // slices 0-1048575, 1048576-2097151, 2097152-2499999
const PATH = `/video/upload/v1/clip_${SIZE}b.mp4`;
const UPSTREAM = `/demo${PATH}`;

Deno.test("a closed range is cut from 1 MiB slices fetched once each, then served as hits", async () => {
  await using t = await imageHostFixture();
  const whole = assetBytes(UPSTREAM, SIZE);
  const across = await t.fx.request(PATH, { headers: { range: "bytes=1048000-1049999" } });
  assertEquals(across.status, 206);
  assertEquals(across.headers.get("content-range"), `bytes 1048000-1049999/${SIZE}`);
  assertEquals(across.headers.get("content-type"), "video/mp4");
  assertEquals(across.headers.get("x-cachely-cache"), "MISS");
  assertEquals(await bytesOf(across), whole.subarray(1048000, 1050000));
  assertEquals(
    t.host.seen.map((s) => s.headers.get("range")).sort(),
    ["bytes=0-1048575", "bytes=1048576-2097151"],
    "the origin was asked for the two aligned slices, not the visitor's range",
  );

  const inside = await t.fx.request(PATH, { headers: { range: "bytes=100-199" } });
  assertEquals(inside.status, 206);
  assertEquals(inside.headers.get("x-cachely-cache"), "HIT");
  assertEquals(inside.headers.get("content-range"), `bytes 100-199/${SIZE}`);
  assertEquals(await bytesOf(inside), whole.subarray(100, 200));
  assertEquals(t.host.seen.length, 2, "served from the cached slice");

  // the last slice is short; a range past the end is clamped to it
  const tail = await t.fx.request(PATH, { headers: { range: "bytes=2400000-2600000" } });
  assertEquals(tail.status, 206);
  assertEquals(tail.headers.get("content-range"), `bytes 2400000-2499999/${SIZE}`);
  assertEquals(await bytesOf(tail), whole.subarray(2_400_000));
  assertEquals(t.host.seen.length, 3);

  // past the end, inside the last slice: 416 from the slice's total, no new fetch
  const past = await t.fx.request(PATH, { headers: { range: "bytes=2600000-2600010" } });
  assertEquals(past.status, 416);
  assertEquals(past.headers.get("content-range"), `bytes */${SIZE}`);
  await past.arrayBuffer();
  assertEquals(t.host.seen.length, 3);

  // past the end, beyond the last slice: the origin's 416 is passed on, not cached
  for (let i = 0; i < 2; i++) {
    const beyond = await t.fx.request(PATH, { headers: { range: "bytes=5000000-5000010" } });
    assertEquals(beyond.status, 416);
    assertEquals(beyond.headers.get("content-range"), `bytes */${SIZE}`);
    await beyond.arrayBuffer();
  }
  assertEquals(t.host.seen.length, 5);
});

Deno.test("100 concurrent requests for ranges of one slice cost the origin one request", async () => {
  await using t = await imageHostFixture();
  const whole = assetBytes(UPSTREAM, SIZE);
  const answers = await Promise.all(
    Array.from({ length: 100 }, async (_, i) => {
      const r = await t.fx.request(PATH, {
        headers: { range: `bytes=${i * 100}-${i * 100 + 99}` },
      });
      return { status: r.status, body: await bytesOf(r), i };
    }),
  );
  for (const a of answers) {
    assertEquals(a.status, 206);
    assertEquals(a.body, whole.subarray(a.i * 100, a.i * 100 + 100));
  }
  assertEquals(t.host.seen.length, 1);
});

Deno.test("suffix and multiple ranges are forwarded as before", async () => {
  await using t = await imageHostFixture();
  for (const sent of ["bytes=-100", "bytes=0-9,20-29"]) {
    const before = t.host.seen.length;
    const r = await t.fx.request(PATH, { headers: { range: sent } });
    await r.arrayBuffer();
    assertEquals(r.headers.get("x-cachely-cache"), "BYPASS", sent);
    assertEquals(t.host.seen.length, before + 1, sent);
    assertEquals(t.host.seen.at(-1)!.headers.get("range"), sent);
  }
});

Deno.test("If-Range: the slices answer when their ETag or date matches; else the origin decides", async () => {
  await using t = await imageHostFixture();
  const whole = assetBytes(UPSTREAM, SIZE);
  const etag = `"${UPSTREAM.length}-${SIZE}"`;
  // Chrome's seeks: If-Range with the ETag of its first answer, closed or open-ended
  const cases: Array<[string, string, number]> = [
    [etag, "bytes=1000-1999", 1000],
    [ASSET_LAST_MODIFIED, "bytes=1048576-2097151", 1048576],
    [etag, "bytes=2000000-", 2000000],
  ];
  for (const [ifRange, range, from] of cases) {
    const r = await t.fx.request(PATH, { headers: { range, "if-range": ifRange } });
    assertEquals(r.status, 206, range);
    assert(r.headers.get("x-cachely-cache") !== "BYPASS", range);
    const body = await bytesOf(r);
    assertEquals(body, whole.subarray(from, from + body.byteLength), range);
  }
  assert(t.host.seen.every((s) => s.headers.get("if-range") === null), "slices only");
  const slices = t.host.seen.length;
  // another version, a weak tag or another date: the origin answers (it sends the whole)
  for (const ifRange of ['"other"', `W/${etag}`, "Thu, 01 Jan 2026 00:00:00 GMT"]) {
    const r = await t.fx.request(PATH, { headers: { range: "bytes=10-19", "if-range": ifRange } });
    await r.arrayBuffer();
    assertEquals(r.headers.get("x-cachely-cache"), "BYPASS", ifRange);
    assertEquals(t.host.seen.at(-1)!.headers.get("if-range"), ifRange);
    assertEquals(t.host.seen.at(-1)!.headers.get("range"), "bytes=10-19");
  }
  assertEquals(t.host.seen.length, slices + 3, "no slice fetched again");
});

Deno.test("an origin that ignores Range: its whole 200 is passed on and nothing is cached", async () => {
  await using t = await imageHostFixture();
  const path = `/video/upload/v1/norange/a_${SIZE}b.mp4`;
  for (let i = 0; i < 2; i++) {
    const r = await t.fx.request(path, { headers: { range: "bytes=10-19" } });
    assertEquals(r.status, 200);
    assertEquals(r.headers.get("x-cachely-cache"), "BYPASS");
    assertEquals((await bytesOf(r)).byteLength, SIZE);
  }
  assert(t.host.count(`/demo${path}`) >= 2, "every request reached the origin");
  const small = `/video/upload/v1/norange/b_5000b.mp4`;
  const r = await t.fx.request(small, { headers: { range: "bytes=10-19" } });
  assertEquals(r.status, 200, "a small whole answer too: a server may ignore Range");
  assertEquals(await bytesOf(r), assetBytes(`/demo${small}`, 5000));
});

Deno.test("slices of an object that changed between fetches are dropped and the range forwarded", async () => {
  await using t = await imageHostFixture();
  const first = await t.fx.request(PATH, { headers: { range: "bytes=0-9" } });
  assertEquals(first.headers.get("etag"), `"${UPSTREAM.length}-${SIZE}"`);
  await first.arrayBuffer();
  t.host.revision = 1; // the origin publishes a new version of the file
  const across = await t.fx.request(PATH, { headers: { range: "bytes=1048570-1048580" } });
  assertEquals(across.status, 206);
  assertEquals(across.headers.get("x-cachely-cache"), "BYPASS", "forwarded, not mixed");
  assertEquals(across.headers.get("etag"), `"${UPSTREAM.length}-${SIZE}-r1"`);
  assertEquals(t.host.seen.at(-1)!.headers.get("range"), "bytes=1048570-1048580");
  await across.arrayBuffer();
  // the old slice is gone: the next range of it is fetched again, at the new version
  const again = await t.fx.request(PATH, { headers: { range: "bytes=0-9" } });
  assertEquals(again.headers.get("x-cachely-cache"), "MISS");
  assertEquals(again.headers.get("etag"), `"${UPSTREAM.length}-${SIZE}-r1"`);
  await again.arrayBuffer();
});

Deno.test("a cache-version bump drops the slices with the object", async () => {
  await using t = await imageHostFixture();
  await (await t.fx.request(PATH, { headers: { range: "bytes=0-9" } })).arrayBuffer();
  const hit = await t.fx.request(PATH, { headers: { range: "bytes=0-9" } });
  assertEquals(hit.headers.get("x-cachely-cache"), "HIT");
  await hit.arrayBuffer();
  await t.fx.update({ versions: { api: 1, assets: 2, html: 1 } });
  const after = await t.fx.request(PATH, { headers: { range: "bytes=0-9" } });
  assertEquals(after.headers.get("x-cachely-cache"), "MISS");
  await after.arrayBuffer();
  assertEquals(t.host.seen.length, 2);
});

Deno.test("a range asked again is a clone of a template in its slice's slot, gone with the slice", async () => {
  await using t = await imageHostFixture();
  const whole = assetBytes(UPSTREAM, SIZE);
  const templates = t.fx.edge.cache.rangeTemplates;
  const answers = [];
  for (let i = 0; i < 4; i++) {
    const r = await t.fx.request(PATH, { headers: { range: "bytes=1000-1999" } });
    answers.push({ cache: r.headers.get("x-cachely-cache"), body: await bytesOf(r), r });
  }
  assertEquals(answers.map((a) => a.cache), ["MISS", "HIT", "HIT", "HIT"]);
  for (const a of answers) {
    assertEquals(a.r.status, 206);
    assertEquals(a.r.headers.get("content-range"), `bytes 1000-1999/${SIZE}`);
    assertEquals(a.body, whole.subarray(1000, 2000));
  }
  assertEquals(templates.count, 1, "the third request built one template");
  t.fx.clock.advance(5_000);
  const aged = await t.fx.request(PATH, { headers: { range: "bytes=1000-1999" } });
  assertEquals(aged.headers.get("age"), "5");
  assertEquals(await bytesOf(aged), whole.subarray(1000, 2000));
  // another range of the same slice is cut afresh; the hot template stays
  const other = await t.fx.request(PATH, { headers: { range: "bytes=5-9" } });
  assertEquals(await bytesOf(other), whole.subarray(5, 10));
  assertEquals(templates.count, 1);
  // the object changes: its slices are dropped, and the template with them
  t.host.revision = 1;
  await (await t.fx.request(PATH, { headers: { range: "bytes=1048570-1048580" } })).arrayBuffer();
  assertEquals(templates.count, 0);
  const fresh = await t.fx.request(PATH, { headers: { range: "bytes=1000-1999" } });
  assertEquals(fresh.headers.get("x-cachely-cache"), "MISS");
  assertEquals(fresh.headers.get("etag"), `"${UPSTREAM.length}-${SIZE}-r1"`);
  await fresh.arrayBuffer();
});

Deno.test("a range across slices, asked again, is templated too; a clamped one counts its real bytes", async () => {
  await using t = await imageHostFixture();
  const whole = assetBytes(UPSTREAM, SIZE);
  const templates = t.fx.edge.cache.rangeTemplates;
  for (const range of ["bytes=1000000-1100000", "bytes=2400000-2600000"]) {
    const [a, b] = range.slice(6).split("-").map(Number);
    const end = Math.min(b, SIZE - 1);
    for (let i = 0; i < 4; i++) {
      const r = await t.fx.request(PATH, { headers: { range } });
      assertEquals(r.headers.get("content-range"), `bytes ${a}-${end}/${SIZE}`);
      assertEquals(await bytesOf(r), whole.subarray(a, end + 1), `${range} #${i}`);
    }
  }
  assertEquals(templates.count, 2);
  const served = t.fx.usage.filter((u) => u.cache === "HIT").map((u) => u.bytes);
  assertEquals(served.slice(-2), [SIZE - 2400000, SIZE - 2400000]);
});
