// deno-lint-ignore-file no-explicit-any -- the scripts' results are plain JSON
/**
 * Calls taken unchanged from the original product's docs and from public sites using its
 * SDK, run in Node 20 against the packed @cachely/sdk with the real @prismicio/client.
 * The network is a stub (tests/fixtures/cms_stub.mjs) that records every URL.
 */
import { assert, assertEquals } from "./assert.ts";
import { nodeProject, runNode } from "./sdk_node.ts";

const STUB = new URL("./fixtures/cms_stub.mjs", import.meta.url).pathname;
const IMAGE = "https://images.prismic.io/cachely-io/hero.png?auto=format";

let projectDir: Promise<string> | null = null;
/** One Node project for the whole file (installing takes seconds). */
function project(): Promise<string> {
  projectDir ??= nodeProject();
  return projectDir;
}
globalThis.addEventListener("unload", () => {
  projectDir?.then((d) => Deno.removeSync(d, { recursive: true }));
});

const prelude = `
  import { installStub } from ${JSON.stringify(STUB)};
  const seen = installStub(${JSON.stringify(IMAGE)});
  const attempt = async (f) => { try { return await f(); } catch (e) { return "threw: " + e.message; } };
`;

Deno.test("docs' createCachelyFetch({ tenant, provider: 'prismic' }) derives the repository", async () => {
  const out: any = await runNode(
    await project(),
    `${prelude}
    import { createCachelyFetch } from "@cachely/sdk";
    import * as prismic from "@prismicio/client";
    const result = await attempt(async () => {
      const cachelyFetch = createCachelyFetch({ tenant: "prismic", provider: "prismic" });
      const res = await cachelyFetch("https://cachely-io.cdn.prismic.io/api/v2/documents/search?ref=r1");
      const direct = (await res.json()).results[0].data.image.url;
      const client = prismic.createClient("cachely-io", { fetch: cachelyFetch });
      const home = await client.getSingle("homepage");
      return { direct, client: home.data.image.url };
    });
    console.log(JSON.stringify({ result, seen }));`,
  );
  assertEquals(out.result, {
    direct: "https://prismic.cachely.app/cachely-io/hero.png?auto=format",
    client: "https://prismic.cachely.app/cachely-io/hero.png?auto=format",
  });
  assertEquals(out.seen[0], "https://prismic.cachely.app/~api/documents/search?ref=r1");
  for (const u of out.seen) assertEquals(new URL(u).host, "prismic.cachely.app", u);
});

/** The public site's call: createCachelyPrismicClient with `customDomain: true`. */
const customDomainTrue = `${prelude}
  import { createCachelyExperimentTracker } from "@cachely/sdk";
  import { createCachelyPrismicClient } from "@cachely/sdk/prismic";
  const repositoryName = "cachely-io";
  const result = await attempt(async () => {
    const experiments = createCachelyExperimentTracker({
      tenantSlug: "prismic",
      endpoint: "https://app.cachely.app/api/ai-experiments/events",
    });
    const client = createCachelyPrismicClient({
      repositoryName,
      tenant: "prismic",
      customDomain: true,
      experiments,
    });
    return (await client.getSingle("homepage")).data.image.url;
  });
  console.log(JSON.stringify({ result, seen }));`;

Deno.test("customDomain: true uses CACHELY_CUSTOM_DOMAIN from the environment", async () => {
  const out: any = await runNode(await project(), customDomainTrue, {
    NEXT_PUBLIC_CACHELY_CUSTOM_DOMAIN: "cdn.example.com",
  });
  assertEquals(out.result, "https://cdn.example.com/cachely-io/hero.png?auto=format");
  assertEquals(out.seen.map((u: string) => new URL(u).origin), [
    "https://cdn.example.com",
    "https://cdn.example.com",
  ]);
});

Deno.test("customDomain: true, no configured domain, none verified: the tenant's host", async () => {
  // The stub answers the tenant host's /~domain with 404: the SDK keeps the tenant host.
  const out: any = await runNode(await project(), customDomainTrue);
  assertEquals(out.result, "https://prismic.cachely.app/cachely-io/hero.png?auto=format");
  assertEquals(out.seen.slice(0, 2), [
    "https://prismic.cachely.app/~domain",
    "https://prismic.cachely.app/~api/",
  ]);
  assertEquals(out.seen.filter((u: string) => u.endsWith("/~domain")).length, 1, "asked once");
});

/** Port of the loopback tenant host below (the range this file's servers use). */
const TENANT_PORT = 18850;

Deno.test("customDomain: true, no configured domain: the tenant's verified domain (/~domain)", async () => {
  // The tenant host on loopback (`prismic.localhost:<port>`), answering /~domain as the edge does.
  const asked: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: TENANT_PORT, onListen() {} }, (req) => {
    asked.push(`${req.headers.get("host")}${new URL(req.url).pathname}`);
    return new URL(req.url).pathname === "/~domain"
      ? Response.json({ domain: "cdn.verified.example" }, {
        headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" },
      })
      : new Response("not found", { status: 404 });
  });
  try {
    const out: any = await runNode(
      await project(),
      `${prelude}
      import { createCachelyPrismicClient } from "@cachely/sdk/prismic";
      const options = {
        repositoryName: "cachely-io",
        tenant: "prismic",
        customDomain: true,
        proxyDomain: "localhost:${TENANT_PORT}",
      };
      const result = await attempt(async () => {
        const client = createCachelyPrismicClient(options);
        const before = client.cachelyFetch.tenantOrigin;
        const image = (await client.getSingle("homepage")).data.image.url;
        const after = client.cachelyFetch.tenantOrigin;
        // A second client in the same process: the answer is remembered, not asked again.
        const other = createCachelyPrismicClient(options);
        await other.getSingle("homepage");
        return { before, image, after, proxied: other.cachelyFetch.proxyUrl("https://cachely-io.cdn.prismic.io/api/v2") };
      });
      console.log(JSON.stringify({ result, seen }));`,
    );
    assertEquals(out.result, {
      before: `http://prismic.localhost:${TENANT_PORT}`,
      image: "https://cdn.verified.example/cachely-io/hero.png?auto=format",
      after: "https://cdn.verified.example",
      proxied: "https://cdn.verified.example/~api/",
    });
    assertEquals(
      asked,
      [`prismic.localhost:${TENANT_PORT}/~domain`],
      "asked once, on the tenant host",
    );
    assert(out.seen.length >= 4, out.seen.join(" "));
    for (const u of out.seen) assertEquals(new URL(u).origin, "https://cdn.verified.example", u);
  } finally {
    await server.shutdown();
  }
});

Deno.test("transformPrismicAssetUrls / transformContentfulAssetUrls keep the original names", async () => {
  const out: any = await runNode(
    await project(),
    `${prelude}
    const sdk = await import("@cachely/sdk");
    const pr = await import("@cachely/sdk/prismic");
    const cf = await import("@cachely/sdk/contentful");
    const base = "https://acme.cachely.app";
    const doc = { data: { image: { url: ${JSON.stringify(IMAGE)} } } };
    const entry = { fields: { file: { url: "//images.ctfassets.net/abc123xyz/a1/tok/hero.jpg" } } };
    const result = await attempt(() => ({
      prismic: sdk.transformPrismicAssetUrls(doc, { base }).data.image.url,
      prismicRepo: sdk.transformPrismicAssetUrls(doc, { base, repository: "cachely-io" }).data.image.url,
      otherRepo: sdk.transformPrismicAssetUrls(doc, { base, repository: "other" }).data.image.url,
      contentful: sdk.transformContentfulAssetUrls(entry, { base }).fields.file.url,
      contentfulSpace: sdk.transformContentfulAssetUrls(entry, { base, spaceId: "abc123xyz" }).fields.file.url,
      entries: [pr.transformPrismicAssetUrls(doc, { base }).data.image.url === sdk.transformPrismicAssetUrls(doc, { base }).data.image.url,
        cf.transformContentfulAssetUrls(entry, { base }).fields.file.url === sdk.transformContentfulAssetUrls(entry, { base }).fields.file.url],
    }));
    console.log(JSON.stringify({ result }));`,
  );
  assertEquals(out.result, {
    prismic: "https://acme.cachely.app/cachely-io/hero.png?auto=format",
    prismicRepo: "https://acme.cachely.app/cachely-io/hero.png?auto=format",
    otherRepo: IMAGE,
    contentful: "https://acme.cachely.app/a1/tok/hero.jpg",
    contentfulSpace: "https://acme.cachely.app/a1/tok/hero.jpg",
    entries: [true, true],
  });
});

Deno.test("a Shopify store as a bare apiHosts entry reaches /api/<version>/graphql.json once", async () => {
  const out: any = await runNode(
    await project(),
    `${prelude}
    import { createCachelyFetch, createGenericProvider } from "@cachely/sdk";
    const store = "acme.myshopify.com";
    const result = await attempt(async () => {
      const cachelyFetch = createCachelyFetch({
        tenant: "acme",
        provider: createGenericProvider({ id: "shopify", apiHosts: [store], assetHosts: ["cdn.shopify.com"] }),
      });
      const res = await cachelyFetch("https://" + store + "/api/2024-01/graphql.json", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ shop { name } }" }),
      });
      return (await res.json()).data.shop.name;
    });
    console.log(JSON.stringify({ result, seen }));`,
  );
  assertEquals(out.result, "Shop");
  // The tenant's apiOrigin is https://<store>/api (sdk/providers.ts): the edge appends this.
  assertEquals(out.seen, ["https://acme.cachely.app/~api/2024-01/graphql.json"]);
});

Deno.test("customDomain: true: a /~domain that answers null or never answers keeps the tenant host", async () => {
  const out: any = await runNode(
    await project(),
    `${prelude}
    import { createCachelyPrismicClient } from "@cachely/sdk/prismic";
    const stub = globalThis.fetch;
    const aborted = [];
    // "hangs": its /~domain never answers (until the SDK gives up); "none": answers null.
    const fetch = (input, init) => {
      const url = String(input);
      if (url === "https://hangs.cachely.app/~domain") {
        return new Promise((_, reject) => init?.signal?.addEventListener("abort", () => {
          aborted.push(url);
          reject(new Error("aborted"));
        }));
      }
      if (url === "https://none.cachely.app/~domain") {
        return Promise.resolve(Response.json({ domain: null }));
      }
      return stub(input, init);
    };
    const image = async (tenant) => {
      const client = createCachelyPrismicClient({ repositoryName: "cachely-io", tenant, customDomain: true, fetch });
      const url = (await client.getSingle("homepage")).data.image.url;
      return { url, origin: client.cachelyFetch.tenantOrigin };
    };
    const result = await attempt(async () => ({ hangs: await image("hangs"), none: await image("none") }));
    console.log(JSON.stringify({ result, seen, aborted }));`,
  );
  assertEquals(out.result, {
    hangs: {
      url: "https://hangs.cachely.app/cachely-io/hero.png?auto=format",
      origin: "https://hangs.cachely.app",
    },
    none: {
      url: "https://none.cachely.app/cachely-io/hero.png?auto=format",
      origin: "https://none.cachely.app",
    },
  });
  assertEquals(out.aborted, ["https://hangs.cachely.app/~domain"], "the lookup was given up");
  for (const u of out.seen) assert(/^https:\/\/(hangs|none)\.cachely\.app\/~api\//.test(u), u);
});
