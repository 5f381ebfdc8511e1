import { assertEquals } from "../../tests/assert.ts";
import { rewriteProviderUrls, rewriterFor } from "./mod.ts";
import type { EdgeSnapshot } from "../kv/snapshot.ts";

const ctx = {
  imageHostAssetOrigin: "https://res.cloudinary.com",
  imageHostApiOrigin: "https://api.cloudinary.com",
};
const snap = (cms: EdgeSnapshot["cms"], cloudName: string | null = null) =>
  ({ cms, cloudName, slug: "acme" }) as EdgeSnapshot;
const T = "https://acme.cachely.example";

Deno.test("rewriteProviderUrls() gives clean URLs from the tenant's provider rules", () => {
  const target = { snapshot: snap("storyblok"), tenantOrigin: T, providerContext: ctx };
  assertEquals(
    rewriteProviderUrls(
      '{"f":"https://a.storyblok.com/f/1/x.png","o":"https://images.ctfassets.net/x/y"}',
      target,
    ),
    `{"f":"${T}/f/1/x.png","o":"https://images.ctfassets.net/x/y"}`,
  );
});

Deno.test("rewriteProviderUrls() keeps /~assets/<host>/ for a tenant without its identifier", () => {
  const target = { snapshot: snap("contentful"), tenantOrigin: T, providerContext: ctx };
  assertEquals(
    rewriteProviderUrls("https://images.ctfassets.net/sp/a/b/c.jpg", target),
    `${T}/~assets/images.ctfassets.net/sp/a/b/c.jpg`,
  );
  const withId = {
    ...target,
    snapshot: { ...snap("contentful"), provider: { cms: "contentful" as const, spaceId: "sp00" } },
  };
  assertEquals(
    rewriteProviderUrls("https://images.ctfassets.net/sp00/a/b/c.jpg", withId),
    `${T}/a/b/c.jpg`,
  );
});

Deno.test("rewriteProviderUrls() maps the image host and private host of the tenant's cloud", () => {
  const target = { snapshot: snap("cloudinary", "demo"), tenantOrigin: T, providerContext: ctx };
  assertEquals(
    rewriteProviderUrls("https://demo-res.cloudinary.com/video/upload/v1/a.mp4", target),
    `${T}/video/upload/v1/a.mp4`,
  );
  assertEquals(
    rewriteProviderUrls("generic text", { ...target, snapshot: snap("generic") }),
    "generic text",
  );
});

Deno.test("rewriterFor() memoises one compiled rewriter per snapshot and tenant origin", () => {
  const a = { snapshot: snap("sanity"), tenantOrigin: T, providerContext: ctx };
  assertEquals(rewriterFor(a), rewriterFor({ ...a }));
});

Deno.test("the server's rewrite and the SDK's transformer give the same URLs for every kind", async () => {
  const { DEMO_SAMPLES } = await import("../demos/samples.ts");
  const { transformResponse } = await import("../../sdk/transformer.ts");
  for (const [cms, sample] of Object.entries(DEMO_SAMPLES)) {
    const server = JSON.parse(rewriteProviderUrls(JSON.stringify(sample.body), {
      snapshot: {
        cms: cms as EdgeSnapshot["cms"],
        cloudName: sample.provider.cloudName ?? null,
        provider: sample.provider,
      },
      tenantOrigin: T,
      providerContext: ctx,
    }));
    const sdk = transformResponse(sample.body, { base: T, provider: sample.provider });
    assertEquals(sdk, server, cms);
    assertEquals(JSON.stringify(server).includes(T), true, cms);
  }
});
