import { assert, assertEquals, assertThrows } from "../../tests/assert.ts";
import {
  formatPath,
  parseSelector,
  selectNodes,
  SelectorError,
  selectorProblem,
  selectStrings,
  setAtPath,
} from "./selector.ts";

// ---- happy ----

Deno.test("parseSelector() compiles a.b, items[*].title, indexes and nested [*]", () => {
  assertEquals(parseSelector("a.b").segments, [
    { kind: "name", name: "a" },
    { kind: "name", name: "b" },
  ]);
  assertEquals(parseSelector("items[*].title").segments, [
    { kind: "name", name: "items" },
    { kind: "wildcard" },
    { kind: "name", name: "title" },
  ]);
  assertEquals(parseSelector("a[10][*]").segments, [
    { kind: "name", name: "a" },
    { kind: "index", index: 10 },
    { kind: "wildcard" },
  ]);
  assertEquals(parseSelector("[0].x").segments[0], { kind: "index", index: 0 });
});

Deno.test("selectStrings() returns string leaves only, in document order", () => {
  const doc = {
    items: [
      { title: "one", n: 1 },
      { title: 2 },
      { title: { nested: "no" } },
      { title: "four" },
      { other: "x" },
    ],
  };
  const got = selectStrings(doc, parseSelector("items[*].title"));
  assertEquals(got, [
    { path: ["items", 0, "title"], value: "one" },
    { path: ["items", 3, "title"], value: "four" },
  ]);
});

Deno.test("selectStrings() walks nested [*] and indexes", () => {
  const doc = { s: [{ i: [{ t: "a" }, { t: "b" }] }, { i: [{ t: "c" }] }] };
  assertEquals(selectStrings(doc, parseSelector("s[*].i[*].t")).map((l) => l.value), [
    "a",
    "b",
    "c",
  ]);
  assertEquals(selectStrings(doc, parseSelector("s[0].i[1].t")).map((l) => l.value), ["b"]);
  assertEquals(selectStrings(doc, parseSelector("s[5].i[0].t")), []);
});

Deno.test("setAtPath() writes back to the selected leaf and formatPath() renders it", () => {
  const doc = { items: [{ title: "a" }, { title: "b" }] };
  const leaves = selectStrings(doc, parseSelector("items[*].title"));
  setAtPath(doc, leaves[1].path, "B");
  assertEquals(doc, { items: [{ title: "a" }, { title: "B" }] });
  assertEquals(formatPath(leaves[1].path), "items[1].title");
});

// ---- errors ----

Deno.test("parseSelector() refuses input outside the grammar with a position", () => {
  const cases: [string, number][] = [
    ["", 0],
    ["a..b", 2],
    ["a.", 2],
    ["a[", 2],
    ["a[*", 3],
    ["a[1", 3],
    ["a[-1]", 2],
    ["a[01]", 3],
    ["a['b']", 2],
    ["a[?@.x]", 2],
    ["a[1:2]", 3],
    ["$.a", 0],
    [".a", 0],
    ["a b", 1],
    ["a]", 1],
    ["1a", 0],
    ["a[99999999999999999999]", 2],
  ];
  for (const [src, pos] of cases) {
    const e = assertThrows(() => parseSelector(src), src);
    assert(e instanceof SelectorError, `${src}: ${e}`);
    assertEquals(e.position, pos, `${src}: ${e.message}`);
  }
  assertEquals(selectorProblem("items[*].title"), null);
  assertEquals(selectorProblem("items[*]]"), 'unexpected "]" at 8');
});

// ---- RFC 9535 compliance suite (the subset our grammar covers) ----

type CtsCase = {
  name: string;
  selector: string;
  document?: unknown;
  result?: unknown[];
  results?: unknown[][];
  invalid_selector?: boolean;
};

const cts = JSON.parse(
  await Deno.readTextFile(
    new URL("../../tests/fixtures/corpora/jsonpath-cts.json", import.meta.url),
  ),
) as { tests: CtsCase[] };

/** `$.a[0]` → `a[0]`, `$[*]` → `[*]`; anything else stays unconvertible (refused). */
function fromJsonPath(sel: string): string | null {
  if (sel.startsWith("$.")) return sel.slice(2);
  if (sel.startsWith("$[")) return sel.slice(1);
  return null;
}

Deno.test("parseSelector() agrees with the JSONPath compliance suite on its subset", () => {
  let answered = 0;
  let refused = 0;
  for (const t of cts.tests) {
    const ours = fromJsonPath(t.selector);
    let compiled;
    try {
      compiled = parseSelector(ours ?? t.selector);
    } catch (e) {
      // Outside our grammar (or invalid per RFC): must be a clean SelectorError, never a crash.
      assert(e instanceof SelectorError, `${t.name}: ${e}`);
      refused++;
      continue;
    }
    assert(ours !== null, `${t.name}: accepted a selector without $ prefix: ${t.selector}`);
    assert(!t.invalid_selector, `${t.name}: accepted an invalid selector ${t.selector}`);
    const got = selectNodes(t.document, compiled).map((n) => n.value);
    const expected = t.result ? [t.result] : t.results!;
    assert(
      expected.some((r) => JSON.stringify(r) === JSON.stringify(got)),
      `${t.name}: ${t.selector} gave ${JSON.stringify(got)}`,
    );
    // String leaves are exactly the string members of the suite's answer.
    const strings = selectStrings(t.document, compiled).map((l) => l.value);
    assertEquals(strings, got.filter((v) => typeof v === "string"), t.name);
    answered++;
  }
  // The subset is real: a good share of the suite is answered, the rest refused.
  assertEquals(answered + refused, cts.tests.length);
  assert(answered >= 15, `only ${answered} suite cases inside the grammar`);
  assert(refused >= 600, `only ${refused} suite cases refused`);
});

// ---- property test: the parser never crashes and accepted selectors round-trip ----

function mulberry32(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  "a",
  "b",
  "_",
  "Z",
  "0",
  "1",
  "9",
  ".",
  "[",
  "]",
  "*",
  "-",
  "'",
  '"',
  "$",
  "?",
  "@",
  ":",
  ",",
  " ",
  "\t",
  "é",
  "\u{1F600}",
  "\ud800",
  "(",
  ")",
  "\\",
];

function render(segments: ReturnType<typeof parseSelector>["segments"]): string {
  return segments.map((s, k) =>
    s.kind === "name"
      ? (k === 0 ? s.name : `.${s.name}`)
      : s.kind === "index"
      ? `[${s.index}]`
      : "[*]"
  ).join("");
}

Deno.test("parseSelector() never throws anything but SelectorError on random input", () => {
  const rand = mulberry32(0xcafe);
  let accepted = 0;
  for (let n = 0; n < 20_000; n++) {
    const len = 1 + Math.floor(rand() * 16);
    let s = "";
    for (let k = 0; k < len; k++) s += ALPHABET[Math.floor(rand() * ALPHABET.length)];
    try {
      const c = parseSelector(s);
      accepted++;
      // Accepted selectors are canonical: rendering the compiled form gives the input back.
      assertEquals(render(c.segments), s);
      assert(c.segments.length >= 1);
    } catch (e) {
      assert(e instanceof SelectorError, `${JSON.stringify(s)}: ${e}`);
      assert(e.position >= 0 && e.position <= s.length, `${JSON.stringify(s)}: ${e.message}`);
    }
  }
  assert(accepted > 0, "the fuzzer should hit some valid selectors");
});

Deno.test("parseSelector() round-trips random valid selectors", () => {
  const rand = mulberry32(42);
  const names = ["a", "title", "_x", "é", "items", "b2"];
  for (let n = 0; n < 2_000; n++) {
    const parts: string[] = [];
    const count = 1 + Math.floor(rand() * 6);
    for (let k = 0; k < count; k++) {
      const r = rand();
      if (r < 0.5) parts.push(`${k === 0 ? "" : "."}${names[Math.floor(rand() * names.length)]}`);
      else if (r < 0.75) parts.push("[*]");
      else parts.push(`[${Math.floor(rand() * 1000)}]`);
    }
    const src = parts.join("");
    assertEquals(render(parseSelector(src).segments), src);
  }
});
