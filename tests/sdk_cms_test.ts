// deno-lint-ignore-file no-explicit-any -- the scenario's result is plain JSON
/**
 * The built @cachely/sdk (sdk/dist) with the real `contentful` and `@prismicio/client`
 * packages, against the real program in front of loopback fakes of those APIs: once
 * in Deno, once in Node 20 (`node` on PATH) with a node_modules made by `deno install`.
 * The same scenario runs in both (tests/fixtures/sdk_scenario.mjs).
 */
import { assert, assertEquals } from "./assert.ts";
import { BACKENDS } from "./harness.ts";
import { CF_SPACE } from "./fakes/cms_apis.ts";
import { type SdkWorld, sdkWorld as world } from "./sdk_world.ts";
import * as contentful from "contentful";
import { nodeProject } from "./sdk_node.ts";

const DIST = new URL("../sdk/dist/", import.meta.url).pathname;
const SCENARIO = new URL("./fixtures/sdk_scenario.mjs", import.meta.url).pathname;

/** What both runtimes must show. */
function checkScenario(out: any, port: number, runtime: string) {
  const m = `${runtime}: ${JSON.stringify(out)}`;
  assertEquals(out.version, "0.14.0", m);
  assertEquals(out.cfTitle, "Hello", m);
  // The asset URL the client hands back is on the tenant host, not Contentful's.
  assertEquals(new URL(out.cfHero).host, `cf-shop.localhost:${port}`, m);
  assertEquals(out.prTitle, "Welcome", m);
  assertEquals(new URL(out.prImage).host, `pr-shop.localhost:${port}`, m);
  assert(["control", "casual"].includes(out.assignment?.variantKey), m);
  assertEquals(out.track.ok, true, m);
  assert(Number.isInteger(out.track.id), m);
  assert(out.badTenant?.includes("invalid option tenant"), m);
  assert(out.badSpace?.includes("invalid option space"), m);
  assert(out.badRepo?.includes("invalid option repositoryName"), m);
  assert(out.badProvider?.includes("invalid option provider"), m);
  assert(out.genericId?.includes("createGenericProvider"), m);
  assert(out.sanityId?.includes("createGenericProvider"), m);
  assert(out.badApiHosts?.includes("invalid option apiHosts[0]"), m);
  assert(out.badId?.includes("invalid option id"), m);
  assertEquals([out.genTitle, out.genCache], ["Generic", "MISS"], m);
  assertEquals(out.genImage, `http://gen-shop.localhost:${port}/img/a.png`, m);
  assertEquals([out.genImageStatus, out.genImageType], [200, "image/png"], m);
  assertEquals(out.directContentful, { adapter: "undefined", accessToken: "cf-token" }, m);
  assertEquals(out.directPrismic, null, m);
  assertEquals(out.envContentful, {
    adapter: "function",
    origin: `http://cf-shop.localhost:${port}`,
  }, m);
  assertEquals(out.envTitle, "Hello", m);
  assertEquals(out.envPrismic, `http://cf-shop.localhost:${port}`, m);
  assert(out.networkWrapped !== null, m);
  assertEquals(out.networkWrapped, out.networkDirect, m);
}

/** Upstream saw the tenant's stored credentials, never a client's. */
function checkUpstream(w: SdkWorld) {
  const cf = w.cms.seen.filter((s) => s.path.startsWith(`/spaces/${CF_SPACE}/`));
  assert(cf.length > 0);
  for (const s of cf) assertEquals(s.headers.get("authorization"), "Bearer cf-delivery-token");
  const pr = w.cms.seen.filter((s) => s.path.startsWith("/api/v2"));
  assert(pr.some((s) => s.path === "/api/v2/documents/search"));
  for (const s of pr) {
    assertEquals(new URLSearchParams(s.query).getAll("access_token"), ["prismic-token"]);
  }
}

for (const backend of BACKENDS) {
  Deno.test({
    name: `sdk (built) in Deno: real contentful and @prismicio/client through Cachely [${backend}]`,
    sanitizeResources: false, // child processes: their pipes' readers and exit status settle after the test's stop()
    sanitizeOps: false,
    async fn() {
      const w = await world(backend);
      try {
        // No fetch given: the SDK reaches *.localhost tenant hosts over loopback itself.
        const { runScenario } = await import(SCENARIO);
        const out = await runScenario({
          sdk: await import(`${DIST}cachely.mjs`),
          cf: await import(`${DIST}contentful.mjs`),
          pr: await import(`${DIST}prismic.mjs`),
          contentful,
          fetch: undefined,
          setEnv: (k: string, v?: string) =>
            v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v),
          ...w.args,
        });
        checkScenario(out, w.port, "deno");
        checkUpstream(w);
      } finally {
        await w.close();
      }
    },
  });

  Deno.test({
    name: `sdk (built) in Node: real contentful and @prismicio/client through Cachely [${backend}]`,
    sanitizeResources: false, // child processes: their pipes' readers and exit status settle after the test's stop()
    sanitizeOps: false,
    async fn() {
      const project = await nodeProject();
      const w = await world(backend);
      try {
        // No DNS set-up: Node does not resolve *.localhost, the SDK connects to loopback itself.
        const script = `
          const { runScenario } = await import(${JSON.stringify(SCENARIO)});
          const out = await runScenario({
            sdk: await import("@cachely/sdk"),
            cf: await import("@cachely/sdk/contentful"),
            pr: await import("@cachely/sdk/prismic"),
            contentful: await import("contentful"),
            fetch: undefined,
            setEnv: (k, v) => v === undefined ? delete process.env[k] : (process.env[k] = v),
            ...${JSON.stringify(w.args)},
          });
          console.log(JSON.stringify({ node: process.version, out }));`;
        await Deno.writeTextFile(`${project}/scenario.mjs`, script);
        const run = await new Deno.Command("node", {
          args: ["scenario.mjs"],
          cwd: project,
          stdout: "piped",
          stderr: "piped",
        }).output();
        const stderr = new TextDecoder().decode(run.stderr);
        assert(run.success, stderr);
        const { node, out } = JSON.parse(new TextDecoder().decode(run.stdout));
        assert(String(node).startsWith("v20."), `expected Node 20, got ${node}`);
        checkScenario(out, w.port, "node");
        checkUpstream(w);
      } finally {
        await w.close();
        await Deno.remove(project, { recursive: true });
      }
    },
  });
}
