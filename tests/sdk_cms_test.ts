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

const DIST = new URL("../sdk/dist/", import.meta.url).pathname;
const SCENARIO = new URL("./fixtures/sdk_scenario.mjs", import.meta.url).pathname;

/** What both runtimes must show. */
function checkScenario(out: any, port: number, runtime: string) {
  const m = `${runtime}: ${JSON.stringify(out)}`;
  assertEquals(out.version, "0.13.0", m);
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
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const w = await world(backend);
      try {
        // Deno's fetch does not resolve *.localhost (Chromium does; Node is patched below):
        // those requests go to the program as an HTTP proxy, which keeps their Host.
        const client = Deno.createHttpClient({ proxy: { url: `http://127.0.0.1:${w.port}` } });
        const loopbackFetch: typeof fetch = (input, init) => {
          const url = input instanceof Request ? input.url : String(input);
          const local = /^http:\/\/([^/]*\.)?localhost(:\d+)?\//.test(url);
          return local ? fetch(input, { ...init, client }) : fetch(input, init);
        };
        const { runScenario } = await import(SCENARIO);
        const out = await runScenario({
          sdk: await import(`${DIST}cachely.mjs`),
          cf: await import(`${DIST}contentful.mjs`),
          pr: await import(`${DIST}prismic.mjs`),
          contentful,
          fetch: loopbackFetch,
          ...w.args,
        }).finally(() => client.close());
        checkScenario(out, w.port, "deno");
        checkUpstream(w);
      } finally {
        await w.close();
      }
    },
  });

  Deno.test({
    name: `sdk (built) in Node: real contentful and @prismicio/client through Cachely [${backend}]`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const project = await nodeProject();
      const w = await world(backend);
      try {
        const script = `
          import dns from "node:dns";
          // Node does not resolve *.localhost (browsers and Deno do): send them to loopback.
          const lookup = dns.lookup;
          dns.lookup = (host, opts, cb) => {
            if (typeof opts === "function") [cb, opts] = [opts, {}];
            if (host === "localhost" || host.endsWith(".localhost")) host = "127.0.0.1";
            return lookup.call(dns, host, opts, cb);
          };
          const { runScenario } = await import(${JSON.stringify(SCENARIO)});
          const out = await runScenario({
            sdk: await import("@cachely/sdk"),
            cf: await import("@cachely/sdk/contentful"),
            pr: await import("@cachely/sdk/prismic"),
            contentful: await import("contentful"),
            fetch: globalThis.fetch,
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

/**
 * A Node project with the built package installed as @cachely/sdk and the real CMS
 * clients in node_modules (`deno install` from Deno's npm cache).
 */
async function nodeProject(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cachely-sdk-node-" });
  const imports = JSON.parse(
    await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
  ).imports as Record<string, string>;
  const version = (name: string) => imports[name].replace(/^npm:.*@/, "");
  await Deno.writeTextFile(
    `${dir}/package.json`,
    JSON.stringify({
      name: "sdk-node-test",
      private: true,
      type: "module",
      dependencies: {
        contentful: version("contentful"),
        "@prismicio/client": version("@prismicio/client"),
      },
    }),
  );
  const install = await new Deno.Command(Deno.execPath(), {
    args: ["install", "--quiet"],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(install.success, new TextDecoder().decode(install.stderr));
  await Deno.mkdir(`${dir}/node_modules/@cachely`, { recursive: true });
  // A copy, as npm would install it (a symlink would make Node resolve the peers from sdk/).
  const cp = await new Deno.Command("cp", {
    args: ["-R", DIST.replace(/\/$/, ""), `${dir}/node_modules/@cachely/sdk`],
  }).output();
  assert(cp.success, new TextDecoder().decode(cp.stderr));
  return dir;
}
