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

Deno.test("rewriteProviderUrls() uses the tenant's provider asset hosts", () => {
  const target = { snapshot: snap("storyblok"), tenantOrigin: T, providerContext: ctx };
  assertEquals(
    rewriteProviderUrls(
      '{"f":"https://a.storyblok.com/f/1/x.png","o":"https://images.ctfassets.net/x"}',
      target,
    ),
    `{"f":"${T}/~assets/a.storyblok.com/f/1/x.png","o":"https://images.ctfassets.net/x"}`,
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

Deno.test("rewriterFor() memoises one compiled rewriter per tenant origin", () => {
  const a = { snapshot: snap("sanity"), tenantOrigin: T, providerContext: ctx };
  assertEquals(rewriterFor(a), rewriterFor({ ...a }));
});
