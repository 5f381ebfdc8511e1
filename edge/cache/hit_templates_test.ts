import { assert, assertEquals } from "../../tests/assert.ts";
import { HitTemplates, TEMPLATE_OBJECT_COST as O, type TemplateHolder } from "./hit_templates.ts";

const build = (n: number) => () => new Response(new Uint8Array(n));

Deno.test("templates stay within their byte bound, oldest dropped first", () => {
  const t = new HitTemplates(3 * (1000 + O), 100);
  const holders: TemplateHolder[] = Array.from({ length: 5 }, () => ({}));
  for (const h of holders) t.admit(h, "x", build(1000), 1000);
  assertEquals(t.count, 3);
  assert(t.bytes <= t.maxBytes, `held ${t.bytes}`);
  assertEquals(holders.map((h) => h.sent !== undefined), [false, false, true, true, true]);
});

Deno.test("templates stay within their count bound", () => {
  const t = new HitTemplates(1 << 30, 2);
  const holders: TemplateHolder[] = Array.from({ length: 4 }, () => ({}));
  for (const h of holders) t.admit(h, "x", build(10), 10);
  assertEquals(t.count, 2);
  assertEquals(holders.map((h) => h.sent !== undefined), [false, false, true, true]);
});

Deno.test("rebuilding a holder's template replaces it; release and clear give the bytes back", () => {
  const t = new HitTemplates(1 << 20, 10);
  const a: TemplateHolder = {};
  const b: TemplateHolder = {};
  const first = t.admit(a, "x", build(100), 100);
  t.admit(a, "y", build(100), 100);
  t.admit(b, "x", build(100), 100);
  assertEquals(t.count, 2);
  assert(a.sent !== first && a.sent?.extra === "y");
  assertEquals(t.bytes, 2 * (100 + O));
  t.release(a);
  assertEquals([a.sent, t.count, t.bytes], [undefined, 1, 100 + O]);
  t.clear();
  assertEquals([b.sent, t.count, t.bytes], [undefined, 0, 0]);
});

Deno.test("a template larger than the whole bound is served but never kept", () => {
  const t = new HitTemplates(5000, 10);
  const h: TemplateHolder = {};
  const got = t.admit(h, "x", build(10_000), 10_000);
  assertEquals(got.res.status, 200);
  assertEquals([h.sent, t.count, t.bytes], [undefined, 0, 0]);
});

Deno.test("a clone of a template sends the whole body every time, and its headers are its own", async () => {
  const t = new HitTemplates(1 << 20, 10);
  const h: TemplateHolder = {};
  const body = new TextEncoder().encode("0123456789");
  const tmpl = t.admit(
    h,
    "x",
    () => new Response(body, { headers: [["content-type", "text/plain"], ["x-a", "1"]] }),
    body.byteLength,
  );
  for (let i = 0; i < 3; i++) {
    const res = tmpl.res.clone();
    res.headers.set("age", String(i + 1));
    res.headers.set("x-a", "changed");
    assertEquals(await res.text(), "0123456789");
  }
  const again = tmpl.res.clone();
  assertEquals([again.headers.get("age"), again.headers.get("x-a")], [null, "1"]);
  await again.body?.cancel();
});

Deno.test("a template served since eviction last passed it gets a second chance (CLOCK)", () => {
  const t = new HitTemplates(1 << 30, 3);
  const [hot, cold1, cold2, next1, next2] = Array.from({ length: 5 }, (): TemplateHolder => ({}));
  for (const h of [hot, cold1, cold2]) t.admit(h, "x", build(10), 10);
  hot.sent!.used = true; // the hit path marks what it serves
  t.admit(next1, "x", build(10), 10);
  assertEquals(
    [hot, cold1, cold2, next1].map((h) => h.sent !== undefined),
    [true, false, true, true],
    "the oldest was served: the next oldest went instead",
  );
  assertEquals(hot.sent!.used, false, "the second chance is spent");
  t.admit(next2, "x", build(10), 10);
  assertEquals([hot, cold2, next1, next2].map((h) => h.sent !== undefined), [
    true,
    false,
    true,
    true,
  ]);
  t.admit({}, "x", build(10), 10);
  t.admit({}, "x", build(10), 10);
  assertEquals(hot.sent, undefined, "unserved since, it goes in turn");
  assertEquals(t.count, 3);
});

Deno.test("two template sets: each releases and replaces only the templates it holds", () => {
  const hits = new HitTemplates(1 << 20, 10);
  const ranges = new HitTemplates(1 << 20, 10);
  const a: TemplateHolder = {};
  const kept = ranges.admit(a, "0-9", build(100), 100);
  hits.release(a); // the store releases every evicted object from both sets
  assertEquals(a.sent, kept);
  assertEquals(hits.bytes, 0);
  const other = hits.admit(a, "x", build(100), 100);
  assert(other !== kept);
  assertEquals(a.sent, kept, "a holder keeps the other set's template");
  assertEquals(hits.count, 0);
  ranges.release(a);
  assertEquals([a.sent, ranges.count, ranges.bytes], [undefined, 0, 0]);
});
