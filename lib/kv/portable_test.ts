import { assert, assertEquals } from "../../tests/assert.ts";
import { decodeValue, encodeValue, portableKv } from "./portable.ts";

Deno.test("encodeValue() stores strings and JSON as bytes that decode to what went in", () => {
  const values: unknown[] = [
    "plain",
    'ünïcödé \u{1f600} "quoted"',
    { a: 1, b: [true, null, "x"], at: new Date(1_700_000_000_000), big: 12n },
    { bytes: new Uint8Array([1, 2, 3]) },
    42,
    null,
  ];
  for (const v of values) {
    const stored = encodeValue(v);
    assert(stored instanceof Uint8Array, "stored as bytes");
    assertEquals(decodeValue(stored), v);
  }
});

Deno.test("encodeValue() leaves KvU64 and raw bytes alone; decodeValue() passes legacy values", () => {
  const u = new Deno.KvU64(7n);
  assertEquals(encodeValue(u), u);
  const raw = new Uint8Array([9, 9, 9, 9]);
  assertEquals(encodeValue(raw), raw);
  assertEquals(decodeValue(raw), raw);
  assertEquals(decodeValue({ legacy: true }), { legacy: true });
});

Deno.test("portableKv(): set, get, getMany, list and chained atomics round-trip", async () => {
  const raw = await Deno.openKv(":memory:");
  try {
    const kv = portableKv(raw);
    await kv.set(["a"], { n: 1 });
    const a = await kv.get(["a"]);
    assertEquals(a.value, { n: 1 });
    assert((await raw.get(["a"])).value instanceof Uint8Array, "bytes underneath");
    const r = await kv.atomic().check(a).set(["a"], { n: 2 }).set(["b"], "two").commit();
    assert(r.ok);
    assertEquals((await kv.getMany([["a"], ["b"]])).map((e) => e.value), [{ n: 2 }, "two"]);
    const listed = [];
    for await (const e of kv.list({ prefix: [] })) listed.push(e.value);
    assertEquals(listed, [{ n: 2 }, "two"]);
    await kv.atomic().sum(["c"], 3n).commit();
    assertEquals((await kv.get<Deno.KvU64>(["c"])).value?.value, 3n);
  } finally {
    raw.close();
  }
});
