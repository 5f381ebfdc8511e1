/**
 * Accept-Language normalised to the tenant's locales: each visitor's value is looked up among
 * them (RFC 4647 §3.4, in q order) before it keys the cache and reaches the origin, so a page
 * has at most one entry per locale, and no visitor gets a language the origin would not have
 * answered them. Measured with 1,567 browser Accept-Language values
 * (tests/fixtures/corpora/accept-language.txt) against 5 locales, on a loopback origin that
 * negotiates for itself, in origin and fixed cache mode. Validated (400 naming `locales`).
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { startUpstream } from "./fakes/upstream.ts";

const LOCALES = ["en", "de", "fr", "es", "ja"];
const CORPUS = Deno.readTextFileSync(
  new URL("./fixtures/corpora/accept-language.txt", import.meta.url),
).split("\n").filter((l) => l !== "");

/**
 * The origin's own negotiation, written apart from lib/base/locales.ts: the ranges by q
 * (ties in order), the first whose primary language it has; `*` or nothing → English.
 */
function originLanguage(header: string | null): string {
  const prefs = (header ?? "").split(",").map((p, i) => {
    const [tag, ...ps] = p.trim().split(";");
    const q = ps.map((x) => x.trim()).find((x) => x.startsWith("q="));
    return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1, i };
  }).filter((p) => p.tag !== "" && p.q > 0).sort((a, b) => b.q - a.q || a.i - b.i);
  for (const p of prefs) {
    if (p.tag === "*") return "en";
    const primary = p.tag.split("-")[0];
    if (LOCALES.includes(primary)) return primary;
  }
  return "en";
}

function startSite() {
  const site = startUpstream();
  site.route("/", (req) => {
    const lang = originLanguage(req.headers.get("accept-language"));
    return new Response(`<p>lang=${lang}</p>`, {
      headers: {
        "content-type": "text/html",
        "content-language": lang,
        "cache-control": "public, max-age=300",
        vary: "Accept-Language",
      },
    });
  });
  return site;
}

async function measure(app: Parameters<Parameters<typeof dbTest>[1]>[0], body: object) {
  const site = startSite();
  try {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { websiteOrigin: site.url, siteProxy: true, ...body });
    const anon = new Client(app);
    let wrong = 0;
    for (const value of CORPUS) {
      const r = await anon.get(`http://${slug}.preview.localhost:8000/`, {
        "accept-language": value,
      });
      assertEquals(r.status, 200, r.text);
      if (r.text !== `<p>lang=${originLanguage(value)}</p>`) wrong++;
    }
    const sent = new Set(site.seen.map((s) => s.headers.get("accept-language") ?? ""));
    return { wrong, fetches: site.count("/"), sent };
  } finally {
    await site.close();
  }
}

dbTest("locales: 1,567 Accept-Language values, 5 locales, origin mode", async (app) => {
  assert(CORPUS.length >= 500, `${CORPUS.length} values`);
  const m = await measure(app, { cacheMode: "origin", locales: LOCALES });
  assertEquals(m.wrong, 0, "wrong-language answers");
  assert(m.fetches <= LOCALES.length, `${m.fetches} origin fetches (entries) for one URL`);
  assert([...m.sent].every((v) => LOCALES.includes(v)), [...m.sent].join(" "));
});

dbTest("locales: the same in fixed mode (the edge keys the locale itself)", async (app) => {
  const m = await measure(app, { locales: LOCALES });
  assertEquals(m.wrong, 0, "wrong-language answers");
  assert(m.fetches <= LOCALES.length, `${m.fetches} origin fetches (entries) for one URL`);
});

dbTest(
  "locales: a bad list is a 400 naming the field; canonical case; in the view",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    assertEquals((await owner.get(`/api/tenants/${slug}`)).body.value.locales, []);
    const many = Array.from({ length: 31 }, (_, i) => `l${String.fromCharCode(97 + (i % 26))}x`);
    for (const bad of [["english!"], ["-de"], "de", [1], many, ["de_DE"]]) {
      const r = await owner.put(`/api/tenants/${slug}`, { locales: bad });
      assertEquals(r.status, 400, JSON.stringify(bad));
      assertMatch(r.body.error.message, /^Invalid locales/);
    }
    const ok = await owner.put(`/api/tenants/${slug}`, { locales: ["EN", "pt-br", "zh-hant-tw"] });
    assertEquals(ok.status, 200, ok.text);
    assertEquals(ok.body.value.locales, ["en", "pt-BR", "zh-Hant-TW"]);
    const page = (await owner.get(`/dashboard/${slug}/cache`)).text;
    assertMatch(page, /name="locales:list"[^>]*value="en, pt-BR, zh-Hant-TW"/);
    const cleared = await owner.put(`/api/tenants/${slug}`, { locales: [] });
    assertEquals(cleared.body.value.locales, []);
  },
);
