/**
 * The host router (lib/http/host_router.ts) over a scripted edge: each host's edge target is
 * built once and handed to every request of that host, and a custom domain the edge knows
 * without a promise is answered without one.
 */
import { assert, assertEquals } from "./assert.ts";
import { testConfig } from "./harness.ts";
import { routeByHost } from "../lib/http/host_router.ts";
import type { Edge, EdgeTarget } from "../edge/types.ts";

function scriptedEdge(domains: Map<string, string>) {
  const targets: EdgeTarget[] = [];
  const edge = {
    handle: (_req: Request, target: EdgeTarget) => {
      targets.push(target);
      return new Response("edge");
    },
    resolveDomain: (hostname: string) => domains.get(hostname) ?? null,
  } as unknown as Edge;
  return { edge, targets };
}

const config = testConfig();
const tenantHost = `acme.${config.proxyDomain}`;
const appHost = new URL(config.publicUrl).host;
const toApp = () => Promise.resolve(new Response("app"));

Deno.test("every request of a host gets the one edge target built for it", async () => {
  const { edge, targets } = scriptedEdge(new Map([["shop.example", "acme"]]));
  const handler = routeByHost(config, edge, toApp);
  for (const host of [tenantHost, `acme.preview.${config.proxyDomain}`, "shop.example"]) {
    for (let i = 0; i < 2; i++) await handler(new Request(`http://${host}/x?i=${i}`));
  }
  assertEquals(targets.map((t) => t.surface), [
    "tenant",
    "tenant",
    "preview",
    "preview",
    "domain",
    "domain",
  ]);
  assertEquals(targets[0], { surface: "tenant", slug: "acme" });
  assertEquals(targets[4], { surface: "domain", hostname: "shop.example" });
  for (const i of [0, 2, 4]) assert(targets[i] === targets[i + 1], `the same target (${i})`);
});

Deno.test("a custom domain the edge knows without a promise is answered without one", async () => {
  const domains = new Map([["shop.example", "acme"]]);
  const { edge } = scriptedEdge(domains);
  const handler = routeByHost(config, edge, toApp);
  const res = handler(new Request("http://shop.example/x"));
  assert(res instanceof Response, "no promise for a memoised domain");
  assertEquals(await res.text(), "edge");
  // the domain leaves the tenant (the edge forgets it): the next request is the app's
  domains.delete("shop.example");
  assertEquals(await (await handler(new Request("http://shop.example/x"))).text(), "app");
  // the management app's own host never asks the edge
  domains.set(new URL(config.publicUrl).hostname, "acme");
  assertEquals(await (await handler(new Request(`http://${appHost}/x`))).text(), "app");
});
