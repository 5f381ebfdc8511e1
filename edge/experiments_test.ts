import { assert, assertEquals } from "../tests/assert.ts";
import {
  assignExperiment,
  EXPERIMENT_EXPOSE_HEADERS,
  experimentHeaders,
  visitorHash,
} from "./experiments.ts";
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import type { ExperimentSnapshot } from "../lib/experiments/snapshot_types.ts";
import { isBotUserAgent } from "../lib/experiments/bots.ts";
import { KNOWN_BOT_TOKENS } from "../lib/base/bots.ts";

function snap(experiments: ExperimentSnapshot[]): EdgeSnapshot {
  return { experiments } as unknown as EdgeSnapshot;
}

const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const ab: ExperimentSnapshot = {
  id: 7,
  routePattern: "/posts",
  routeMatch: "prefix",
  variants: [
    { id: 70, key: "control", weight: 1, transformProfile: null },
    { id: 71, key: "casual", weight: 1, transformProfile: "casual" },
  ],
};

/** Synthetic visitors: distinct IPv4 addresses and a handful of real-looking user agents. */
function visitor(i: number): [string, string] {
  const ip = `${10 + (i >>> 24)}.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`;
  const ua = `${CHROME} v${i % 7}`;
  return [ip, ua];
}

function shares(e: ExperimentSnapshot, n: number): Map<string, number> {
  const s = snap([e]);
  const counts = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const [ip, ua] = visitor(i);
    const a = assignExperiment(s, e.routePattern, ip, ua)!;
    counts.set(a.variantKey, (counts.get(a.variantKey) ?? 0) + 1);
  }
  return counts;
}

// ---- happy ----

Deno.test("assignExperiment() is deterministic per visitor and reports the variant", () => {
  const s = snap([ab]);
  const a = assignExperiment(s, "/posts/1", "203.0.113.9", CHROME)!;
  assertEquals(a.experimentId, 7);
  assert(a.variantId === 70 || a.variantId === 71);
  assertEquals(a.transformProfile, a.variantId === 70 ? null : "casual");
  assertEquals(a.countExposure, true);
  for (let i = 0; i < 20; i++) {
    assertEquals(assignExperiment(snap([ab]), "/posts/1", "203.0.113.9", CHROME), a);
  }
});

Deno.test("assignExperiment() over 100,000 visitors keeps each 50/50 share within 1 point", () => {
  const n = 100_000;
  const c = shares(ab, n);
  for (const key of ["control", "casual"]) {
    const share = (c.get(key) ?? 0) / n * 100;
    assert(Math.abs(share - 50) < 1, `${key}: ${share}%`);
  }
});

Deno.test("assignExperiment() over 100,000 visitors follows weights 1:2:7 within 1 point", () => {
  const n = 100_000;
  const e: ExperimentSnapshot = {
    id: 12,
    routePattern: "/",
    routeMatch: "prefix",
    variants: [
      { id: 1, key: "a", weight: 1, transformProfile: null },
      { id: 2, key: "b", weight: 2, transformProfile: "p2" },
      { id: 3, key: "c", weight: 7, transformProfile: "p3" },
    ],
  };
  const c = shares(e, n);
  for (const [key, expected] of [["a", 10], ["b", 20], ["c", 70]] as const) {
    const share = (c.get(key) ?? 0) / n * 100;
    assert(Math.abs(share - expected) < 1, `${key}: ${share}% (want ${expected}%)`);
  }
});

Deno.test("assignExperiment() salts with the experiment id: two experiments split independently", () => {
  const other: ExperimentSnapshot = { ...ab, id: 8, routePattern: "/news" };
  const s = snap([ab, other]);
  const n = 20_000;
  let same = 0;
  for (let i = 0; i < n; i++) {
    const [ip, ua] = visitor(i);
    const x = assignExperiment(s, "/posts", ip, ua)!;
    const y = assignExperiment(s, "/news", ip, ua)!;
    if (x.variantKey === y.variantKey) same++;
  }
  // Unsalted hashing would put every visitor in the same arm of both (100%).
  const pct = same / n * 100;
  assert(Math.abs(pct - 50) < 2, `same arm in both experiments: ${pct}%`);
});

Deno.test("assignExperiment() matches prefix routes on segment boundaries and exact routes exactly", () => {
  const exact: ExperimentSnapshot = { ...ab, id: 9, routePattern: "/home", routeMatch: "exact" };
  const s = snap([ab, exact]);
  for (const p of ["/posts", "/posts/", "/posts/1", "/posts?x=1", "/posts/a/b"]) {
    assertEquals(assignExperiment(s, p, "1.2.3.4", CHROME)?.experimentId, 7, p);
  }
  for (const p of ["/postscript", "/Posts", "/", "/post"]) {
    assertEquals(assignExperiment(s, p, "1.2.3.4", CHROME), null, p);
  }
  assertEquals(assignExperiment(s, "/home", "1.2.3.4", CHROME)?.experimentId, 9);
  assertEquals(assignExperiment(s, "/home?page=2", "1.2.3.4", CHROME)?.experimentId, 9);
  assertEquals(assignExperiment(s, "/home/1", "1.2.3.4", CHROME), null);
  assertEquals(assignExperiment(snap([]), "/posts", "1.2.3.4", CHROME), null);
});

Deno.test("assignExperiment() recompiles for a new snapshot object", () => {
  const first = assignExperiment(snap([ab]), "/posts", "1.2.3.4", CHROME)!;
  const onlyOne: ExperimentSnapshot = {
    ...ab,
    variants: [{ id: 99, key: "solo", weight: 1, transformProfile: "x" }],
  };
  assert(first.variantId !== 99);
  assertEquals(assignExperiment(snap([onlyOne]), "/posts", "1.2.3.4", CHROME)?.variantId, 99);
});

Deno.test("visitorHash() depends on every part of the key", () => {
  const base = visitorHash("1", "10.0.0.1", "ua");
  assert(base !== visitorHash("2", "10.0.0.1", "ua"));
  assert(base !== visitorHash("1", "10.0.0.2", "ua"));
  assert(base !== visitorHash("1", "10.0.0.1", "ub"));
  assertEquals(base, visitorHash("1", "10.0.0.1", "ua"));
});

Deno.test("experimentHeaders() sets the four headers, and control adds the skip headers", () => {
  const control = experimentHeaders({
    experimentId: 7,
    variantId: 70,
    variantKey: "control",
    transformProfile: null,
    countExposure: true,
  });
  assertEquals(control, {
    "x-cachely-experiment-id": "7",
    "x-cachely-variant-id": "70",
    "x-cachely-variant-key": "control",
    "x-cachely-experiment-profile": "control",
    "x-ai-transform": "skipped",
    "x-ai-transform-skip-reason": "experiment-control",
  });
  const treated = experimentHeaders({
    experimentId: 7,
    variantId: 71,
    variantKey: "casual",
    transformProfile: "casual",
    countExposure: true,
  });
  assertEquals(treated["x-cachely-experiment-profile"], "casual");
  assertEquals(treated["x-ai-transform"], undefined);
  for (const h of [...Object.keys(control)]) assert(EXPERIMENT_EXPOSE_HEADERS.includes(h), h);
});

// ---- bots ----

const BOT_UAS = [
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
  "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
  "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  "Twitterbot/1.0",
  "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
  "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
  "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
  "Mozilla/5.0 (compatible; SomeNewCrawler/0.1)",
  "ExampleBot/3.1",
];
const HUMAN_UAS = [
  CHROME,
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36",
  "curl/8.5.0",
  "Deno/2.9.6",
  "",
];

Deno.test("isBotUserAgent() recognises the documented crawlers and not browsers", () => {
  for (const ua of BOT_UAS) assert(isBotUserAgent(ua), ua);
  for (const token of KNOWN_BOT_TOKENS) assert(isBotUserAgent(`Mozilla/5.0 (${token})`), token);
  for (const ua of HUMAN_UAS) assert(!isBotUserAgent(ua), ua);
});

Deno.test("assignExperiment() serves bots control and does not count them", () => {
  const s = snap([ab]);
  for (const ua of BOT_UAS) {
    for (let i = 0; i < 16; i++) {
      const a = assignExperiment(s, "/posts", `198.51.100.${i}`, ua)!;
      assertEquals(a.variantKey, "control", ua);
      assertEquals(a.transformProfile, null);
      assertEquals(a.countExposure, false);
    }
  }
  const noControl: ExperimentSnapshot = {
    ...ab,
    variants: [
      { id: 1, key: "a", weight: 1, transformProfile: "p1" },
      { id: 2, key: "b", weight: 1, transformProfile: "p2" },
    ],
  };
  assertEquals(assignExperiment(snap([noControl]), "/posts", "1.2.3.4", BOT_UAS[0]), null);
});
