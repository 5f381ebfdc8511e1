/**
 * The SDK's preview helpers (sdk/preview.ts): createCachelyFetch with an editor's token gets
 * drafts through a real edge (and without it, published content); the Next.js draft-mode
 * route keeps the token in an httpOnly cookie and redirects only on-site; Nuxt's options.
 */
import { assert, assertEquals } from "./assert.ts";
import { DRAFT_MARK, PUBLISHED_MARK } from "./fakes/draft_cms.ts";
import { draftWorld } from "./fakes/draft_world.ts";
import {
  createCachelyFetch,
  nextPreviewRoute,
  nextPreviewToken,
  nuxtPreviewMode,
  PREVIEW_COOKIE,
  previewTokenFrom,
} from "../sdk/mod.ts";

Deno.test("createCachelyFetch({ previewToken }) gets drafts through the edge; without it, published", async () => {
  await using w = await draftWorld();
  const token = await w.link("storyblok");
  const viaEdge = (input: RequestInfo | URL) => {
    const u = new URL(input instanceof Request ? input.url : String(input));
    return w.request("storyblok", u.pathname + u.search);
  };
  const common = {
    tenantOrigin: "https://storyblok.cachely.example",
    // only rewriting depends on the provider; the paths are relative (API paths)
    provider: { cms: "contentful" as const, spaceId: "abc123xyz" },
    fetch: viaEdge as typeof fetch,
  };
  const editor = createCachelyFetch({ ...common, previewToken: token });
  const draft = await editor("/stories?version=draft");
  assertEquals(draft.status, 200);
  assert((await draft.text()).includes(DRAFT_MARK));
  const visitor = createCachelyFetch(common);
  const pub = await visitor("/stories");
  assert((await pub.text()).includes(PUBLISHED_MARK));
  const refused = await visitor("/stories?version=draft");
  assertEquals(refused.status, 400);
  await refused.text();
});

Deno.test("Next.js draft mode: the route keeps the token httpOnly and redirects on-site only", async () => {
  const jar = new Map<string, { value: string; options?: Record<string, unknown> }>();
  let enabled = false;
  const deps = {
    draftMode: () => ({
      enable: () => void (enabled = true),
      get isEnabled() {
        return enabled;
      },
    }),
    cookies: () => ({
      get: (n: string) => jar.get(n),
      set: (n: string, value: string, options?: Record<string, unknown>) =>
        void jar.set(n, { value, options }),
    }),
  };
  const route = nextPreviewRoute(deps);
  const token = "cpl1.eyJ0IjoxfQ.c2ln";
  assertEquals(await nextPreviewToken(deps), undefined);
  const res = await route(
    new Request(`https://site.example/api/preview?cachely-preview-token=${token}&redirect=/blog/x`),
  );
  assertEquals(res.status, 307);
  assertEquals(res.headers.get("location"), "/blog/x");
  assert(enabled);
  assertEquals(jar.get(PREVIEW_COOKIE)?.value, token);
  assertEquals(jar.get(PREVIEW_COOKIE)?.options?.httpOnly, true);
  assertEquals(await nextPreviewToken(deps), token);
  for (const to of ["//evil.example", "https://evil.example", "/\\evil.example"]) {
    const r = await route(
      new Request(
        `https://site.example/api/preview?cachely-preview-token=${token}&redirect=${
          encodeURIComponent(to)
        }`,
      ),
    );
    assertEquals(r.headers.get("location"), "/", to);
  }
  const none = await route(new Request("https://site.example/api/preview?cachely-preview-token=x"));
  assertEquals(none.status, 403);
});

Deno.test("previewTokenFrom and Nuxt's usePreviewMode options read a link's token only", () => {
  const token = "cpl1.eyJ0IjoxfQ.c2ln";
  assertEquals(previewTokenFrom(`https://a.example/~api/?cachely-preview-token=${token}`), token);
  assertEquals(previewTokenFrom("https://a.example/?cachely-preview-token=<script>"), null);
  const on = nuxtPreviewMode({ "cachely-preview-token": token });
  assert(on.shouldEnable());
  assertEquals(on.getState({}).cachelyPreviewToken, token);
  const off = nuxtPreviewMode({});
  assert(!off.shouldEnable());
  assertEquals(off.getState({ cachelyPreviewToken: token }).cachelyPreviewToken, token);
});
