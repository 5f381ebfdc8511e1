// deno-lint-ignore-file no-explicit-any -- test JSON
/**
 * The world the SDK tests run against: the real program on a known loopback port
 * (PROXY_DOMAIN localhost:<port>, so `<slug>.localhost:<port>` are tenant hosts), the
 * Contentful and Prismic fakes, tenant `cf-shop` (contentful) and `pr-shop` (prismic)
 * with stored upstream tokens, and an active experiment on pr-shop's `/documents`.
 */
import { assertEquals } from "./assert.ts";
import {
  type Backend,
  createTenant,
  createTestApp,
  serveOnLoopback,
  signUp,
  tenantIdOf,
} from "./harness.ts";
import { CF_SPACE, startCmsApis } from "./fakes/cms_apis.ts";
import { addRule } from "./experiments_helpers.ts";

export type SdkWorld = Awaited<ReturnType<typeof sdkWorld>>;

/** The program on a known port, two tenants in front of the fakes, and an active experiment. */
export async function sdkWorld(backend: Backend) {
  let handler: Deno.ServeHandler = () => new Response("starting", { status: 503 });
  const server = serveOnLoopback((req, info) => handler(req, info));
  const origin = `http://localhost:${server.port}`;
  const app = await createTestApp(backend, {
    env: { PROXY_DOMAIN: `localhost:${server.port}`, PUBLIC_URL: origin },
    clock: undefined,
  });
  handler = (req, info) => app.handler(req, info);
  const cms = startCmsApis();
  const owner = await signUp(app);
  await createTenant(owner, {
    slug: "cf-shop",
    cms: "contentful",
    apiOrigin: `${cms.url}/spaces/${CF_SPACE}`,
  });
  assertEquals(
    (await owner.put("/api/tenants/cf-shop/api-token", { token: "cf-delivery-token" })).status,
    200,
  );
  await createTenant(owner, { slug: "pr-shop", cms: "prismic", apiOrigin: `${cms.url}/api/v2` });
  assertEquals(
    (await owner.put("/api/tenants/pr-shop/api-token", { token: "prismic-token" })).status,
    200,
  );
  // A tenant of no built-in kind: API and assets on the fake's host (http: loopback allowed).
  await createTenant(owner, {
    slug: "gen-shop",
    cms: "generic",
    apiOrigin: cms.url,
    originUrl: cms.url,
    apiAuthMode: "none",
  });
  await addRule(app as any, await tenantIdOf(app, "pr-shop"), "casual");
  const created = await owner.post("/api/tenants/pr-shop/ai-experiments", {
    name: "Home copy",
    routePattern: "/documents",
    variants: [{ key: "control" }, { key: "casual", config: { transformProfile: "casual" } }],
  });
  assertEquals(created.status, 201, created.text);
  const act = await owner.patch(`/api/tenants/pr-shop/ai-experiments/${created.body.id}`, {
    status: "active",
  });
  assertEquals(act.status, 200, act.text);
  // A port nothing listens on, for the network-failure contract.
  const dead = serveOnLoopback(() => new Response(""));
  await dead.close();
  return {
    app,
    cms,
    port: server.port,
    args: {
      proxyDomain: `localhost:${server.port}`,
      endpoint: `${origin}/api/ai-experiments/events`,
      cmsHost: new URL(cms.url).host,
      deadOrigin: dead.url,
    },
    async close() {
      await cms.close();
      await server.close();
      await app.close();
    },
  };
}
