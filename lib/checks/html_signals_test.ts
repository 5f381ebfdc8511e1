import { assertEquals } from "../../tests/assert.ts";
import { analyzePage, type SiteContext } from "./html_signals.ts";
import { detectPlatform } from "./platform.ts";

const CTX: SiteContext = {
  tenantHosts: ["acme.proxy.test", "acme.preview.proxy.test"],
  cmsHosts: ["images.ctfassets.net", "cdn.contentful.com"],
  cmsLabel: "Contentful",
};
const none = new Headers();
const page = (body: string) => `<!doctype html><html><head></head><body>${body}</body></html>`;

Deno.test("analyzePage(): tenant host images and the tracker script are implemented", () => {
  const html = page(`<img src="https://acme.proxy.test/~assets/images.ctfassets.net/a/b.jpg">
    <script src="/js/cachely-tracker.js" data-cachely-tenant="acme"></script>`);
  const a = analyzePage(html, none, CTX);
  assertEquals(a.cachelyUsage, "detected");
  assertEquals(
    a.cachelySignals.map((s) => [s.type, s.context, s.where]),
    [
      ["tenant_host", "img", "<img src>"],
      ["asset_path", "img", "<img src>"],
      ["client_library", "page", "page source"],
    ],
  );
  // the CMS host inside a /~assets/ path on the tenant host is not a direct URL
  assertEquals(a.directCmsUsage, "not_detected");
  assertEquals(a.directCmsSignals, []);
  assertEquals(a.verdictState, "implemented");
  assertEquals(a.cmsLabel, "Contentful");
});

Deno.test("analyzePage(): a CMS host in <img src> without Cachely is not_using", () => {
  const html = page(`<img srcset="https://images.ctfassets.net/sp/x.jpg 1x">`);
  const a = analyzePage(html, none, CTX);
  assertEquals(a.cachelyUsage, "not_detected");
  assertEquals(a.directCmsUsage, "detected");
  assertEquals(a.directCmsSignals, [{
    host: "images.ctfassets.net",
    context: "img",
    where: "<img srcset>",
    resource: true,
    evidence: "https://images.ctfassets.net/sp/x.jpg 1x",
  }]);
  assertEquals(a.verdictState, "not_using");
  assertEquals(
    a.verdict,
    "The site loads Contentful resources directly from images.ctfassets.net and does not reference Cachely.",
  );
});

Deno.test("analyzePage(): Cachely plus a direct CMS resource is mixed", () => {
  const html = page(`<script>fetch("https://acme.proxy.test/~api/entries")</script>
    <div style="background:url('https://images.ctfassets.net/bg.png')"></div>`);
  const a = analyzePage(html, none, CTX);
  assertEquals(a.cachelyUsage, "detected");
  assertEquals(a.directCmsUsage, "detected");
  assertEquals(a.directCmsSignals.map((s) => [s.context, s.where]), [
    ["css_url", "<div style> url()"],
  ]);
  assertEquals(a.verdictState, "mixed");
});

Deno.test("analyzePage(): a CMS host only in serialized data, inline script or CSP is potential", () => {
  const data = page(
    `<script id="__NEXT_DATA__" type="application/json">{"img":"https:\\/\\/images.ctfassets.net\\/a.jpg"}</script>`,
  );
  const a = analyzePage(data, none, CTX);
  assertEquals(a.directCmsUsage, "potential");
  assertEquals(a.directCmsSignals.map((s) => [s.context, s.resource]), [
    ["serialized_data", false],
  ]);
  assertEquals(a.cachelyUsage, "not_detected");
  assertEquals(a.verdictState, "inconclusive");

  const inline = analyzePage(page(`<script>var u="//cdn.contentful.com/x"</script>`), none, CTX);
  assertEquals(inline.directCmsSignals.map((s) => s.context), ["inline_script"]);
  assertEquals(inline.directCmsUsage, "potential");

  const csp = new Headers({ "content-security-policy": "img-src https://images.ctfassets.net" });
  const c = analyzePage(page("<p>hi</p>"), csp, CTX);
  assertEquals(c.directCmsSignals.map((s) => s.context), ["csp"]);
  assertEquals(c.directCmsUsage, "potential");

  const withCachely = analyzePage(
    data.replace("<body>", `<body><img src="https://acme.proxy.test/a.jpg">`),
    none,
    CTX,
  );
  assertEquals(withCachely.verdictState, "implemented", "potential alone does not make it mixed");
});

Deno.test("analyzePage(): a Link header and <link href> are rendered resources", () => {
  const h = new Headers({ link: "<https://images.ctfassets.net/hero.jpg>; rel=preload; as=image" });
  assertEquals(analyzePage(page(""), h, CTX).directCmsSignals.map((s) => s.context), [
    "link_header",
  ]);
  const l = analyzePage(
    page(`<link rel="preload" href="https://cdn.contentful.com/x">`),
    none,
    CTX,
  );
  assertEquals(l.directCmsSignals.map((s) => [s.context, s.resource]), [["link", true]]);
});

Deno.test("analyzePage(): nothing either way is inconclusive (server-side CMS calls)", () => {
  const a = analyzePage(
    page(`<h1>Hello</h1><img src="/local.jpg"><!-- images.ctfassets.net -->`),
    none,
    CTX,
  );
  assertEquals(
    [a.cachelyUsage, a.directCmsUsage, a.verdictState],
    ["inconclusive", "not_detected", "inconclusive"],
  );
  assertEquals(
    a.verdict,
    "Neither Cachely nor Contentful hosts appear in the page; the site may call the CMS server-side.",
  );
});

Deno.test("analyzePage(): hosts match as whole names only", () => {
  const html = page(`<img src="https://images.ctfassets.net.evil.test/a.jpg">
    <img src="https://ximages.ctfassets.net/a.jpg"><img src="https://notacme.proxy.test/a.jpg">`);
  const a = analyzePage(html, none, CTX);
  assertEquals(a.directCmsSignals, []);
  assertEquals(a.cachelySignals, []);
});

Deno.test("detectPlatform() recognises each platform and falls back to generic", () => {
  const cases: Array<[string, string, Record<string, string>?]> = [
    [`<script id="__NEXT_DATA__" type="application/json">{}</script>`, "nextjs"],
    [`<script src="/_nuxt/app.js"></script>`, "nuxt"],
    [`<div id="___gatsby"></div>`, "gatsby"],
    [`<script>window.__remixContext = {}</script>`, "remix"],
    [`<link href="/_app/immutable/x.css">`, "sveltekit"],
    [`<astro-island></astro-island>`, "astro"],
    [`<link href="/wp-content/themes/x.css">`, "wordpress"],
    [`<script src="https://cdn.shopify.com/s/x.js"></script>`, "shopify"],
    [`<html data-wf-page="1">`, "webflow"],
    [`<img src="https://static1.squarespace.com/a.jpg">`, "squarespace"],
    [`<img src="https://static.wixstatic.com/a.jpg">`, "wix"],
    [`<p>plain</p>`, "wix", { "x-wix-request-id": "1" }],
    [`<p>plain</p>`, "nextjs", { "x-powered-by": "Next.js" }],
    [`<p>plain</p>`, "generic"],
  ];
  for (const [html, want, headers] of cases) {
    assertEquals(detectPlatform(html, new Headers(headers)), want, html);
  }
});
