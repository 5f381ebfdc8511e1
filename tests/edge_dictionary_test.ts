/**
 * Dictionary deltas for API JSON (RFC 9842, edge/cache/dictionaries.ts): an answer names itself
 * a dictionary for its path; after the next version is stored, a browser that holds the
 * previous one and accepts dcz gets a delta that `zstd -D previous -d` decodes to the new body.
 * A dictionary the edge does not hold, a malformed header or another tenant's dictionary falls
 * back to br.
 */
import { assert, assertEquals } from "./assert.ts";
import { edgeFixture, startUpstream } from "./fakes/upstream.ts";
import { encodingsSettled } from "../edge/cache/variants.ts";
import { sha256Base64 } from "../edge/cache/dictionaries.ts";
import { cmsList } from "../bench/cms_list.ts";

const enc = new TextEncoder();

async function setup(tenantId = 1) {
  const up = startUpstream();
  let body = cmsList();
  up.route(
    "/entries",
    () => new Response(body, { headers: { "content-type": "application/json" } }),
  );
  const fx = await edgeFixture(up.url, { snapshot: { tenantId, slug: `t${tenantId}` } });
  return {
    fx,
    /** Past the TTL: the next request is answered STALE while the refetch runs; waits for it. */
    async nextVersion(b: string) {
      body = b;
      const seen = up.count("/entries");
      fx.clock.advance(61_000);
      await (await fx.request("/~api/entries")).arrayBuffer();
      while (up.count("/entries") === seen || fx.edge.cache.inflightCount > 0) {
        await new Promise((r) => setTimeout(r, 5));
      }
      await new Promise((r) => setTimeout(r, 10)); // the refreshed copy stored
      await (await fx.request("/~api/entries")).arrayBuffer(); // its first hit: copies queued
      await encodingsSettled();
    },
    setBody(b: string) {
      body = b;
    },
    async get(headers: Record<string, string> = {}) {
      const r = await fx.request("/~api/entries", { headers });
      return { r, bytes: new Uint8Array(await r.arrayBuffer()) };
    },
    async [Symbol.asyncDispose]() {
      fx.close();
      await up.close();
    },
  };
}

/** `zstd -D dict -d` of `bytes`, by the zstd command-line tool. */
async function zstdDecode(dict: Uint8Array, bytes: Uint8Array): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cachely-dcz-" });
  try {
    await Deno.writeFile(`${dir}/previous`, dict);
    await Deno.writeFile(`${dir}/answer.dcz`, bytes);
    const out = await new Deno.Command("zstd", {
      args: ["-q", "-d", "-D", `${dir}/previous`, `${dir}/answer.dcz`, "-c"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("after a one-field edit, dcz against the previous version decodes with zstd -D", async () => {
  await using t = await setup();
  const v1 = cmsList();
  const first = await t.get();
  assertEquals(first.r.headers.get("use-as-dictionary"), 'match="/~api/entries"');
  await t.get(); // the first hit makes the copies and keeps v1 as the dictionary
  await encodingsSettled();
  const v2 = cmsList(36, " (edited)");
  await t.nextVersion(v2);
  const hash = await sha256Base64(enc.encode(v1));
  const gz = await t.get({ "accept-encoding": "gzip" });
  assertEquals(new TextDecoder().decode(gz.bytes).length > 0, true);
  const d = await t.get({
    "accept-encoding": "gzip, br, zstd, dcz",
    "available-dictionary": `:${hash}:`,
  });
  assertEquals(d.r.headers.get("content-encoding"), "dcz");
  assertEquals(d.r.headers.get("vary")?.toLowerCase(), "accept-encoding, available-dictionary");
  assertEquals(await zstdDecode(enc.encode(v1), d.bytes), v2);
  // RFC 9842 §4.2 header: the dictionary's hash in a skippable frame
  assertEquals([...d.bytes.subarray(0, 8)], [0x5e, 0x2a, 0x4d, 0x18, 0x20, 0, 0, 0]);
  assert(
    d.bytes.byteLength <= gz.bytes.byteLength * 0.02,
    `${d.bytes.byteLength} vs gzip ${gz.bytes.byteLength}`,
  );
});

Deno.test("an unknown or malformed Available-Dictionary, or no dcz in Accept-Encoding, gets br", async () => {
  await using t = await setup();
  await t.get();
  await t.get(); // the first hit makes the copies
  await encodingsSettled();
  await t.nextVersion(cmsList(37));
  const hash = await sha256Base64(enc.encode(cmsList()));
  const unknown = await sha256Base64(enc.encode("another body"));
  for (
    const [ae, dict] of [
      ["br, dcz", `:${unknown}:`],
      ["br, dcz", hash],
      ["br, dcz", `:${hash}`],
      ["br, dcz", ":!!!:"],
      ["br", `:${hash}:`],
      ["br, dcz;q=0", `:${hash}:`],
    ]
  ) {
    const r = await t.get({ "accept-encoding": ae, "available-dictionary": dict });
    assertEquals(r.r.status, 200);
    assertEquals(r.r.headers.get("content-encoding"), "br", `${ae} / ${dict}`);
  }
  // a new entry in the list: the delta stays small (goal: ≤ 15 % of gzip)
  const gz = await t.get({ "accept-encoding": "gzip" });
  const d = await t.get({ "accept-encoding": "dcz", "available-dictionary": `:${hash}:` });
  assertEquals(d.r.headers.get("content-encoding"), "dcz");
  assert(d.bytes.byteLength <= gz.bytes.byteLength * 0.15, `${d.bytes.byteLength}`);
});

Deno.test("a dictionary one tenant holds never serves another tenant's answer", async () => {
  await using a = await setup(1);
  await using b = await setup(2);
  await a.get();
  await a.get(); // the first hit makes the copies
  await encodingsSettled();
  const hash = await sha256Base64(enc.encode(cmsList()));
  b.setBody(cmsList(36, " (edited)"));
  await b.get();
  await b.get(); // the first hit makes the copies
  await encodingsSettled();
  const r = await b.get({ "accept-encoding": "br, dcz", "available-dictionary": `:${hash}:` });
  assertEquals(r.r.headers.get("content-encoding"), "br");
});
