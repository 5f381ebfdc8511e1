/**
 * The running instance serves its own @cachely/sdk at a versioned URL, and a fresh Node project
 * installs it from there with plain `npm install <URL>` (no registry, no checkout); the tenant
 * Overview shows that command with the instance's public URL.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { createTenant, dbTest, signUp as signUpIn, TEST_ENCRYPTION_KEY } from "./harness.ts";
import { startInstance, stop } from "./instances.ts";

const dist = JSON.parse(
  await Deno.readTextFile(new URL("../sdk/dist/package.json", import.meta.url)),
);
const VERSION: string = dist.version;
const TGZ = `/sdk/cachely-sdk-${VERSION}.tgz`;
const hasNpm = ["npm", "node"].every((tool) =>
  new Deno.Command("sh", { args: ["-c", `command -v ${tool}`], stdout: "null" }).outputSync()
    .success
);
if (!hasNpm) {
  console.log("sdk_install_test: npm or node not on PATH: the npm install test is skipped");
}

Deno.test({
  name: "main.ts serves the SDK tarball immutable, and npm installs it into a fresh project",
  ignore: !hasNpm,
  sanitizeResources: false, // the child process's pipes settle after stop()
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cachely-sdk-install-" });
    const inst = await startInstance({
      DATA_DIR: `${dir}/data`,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    });
    try {
      const base = `http://127.0.0.1:${inst.port}`;
      const r = await fetch(`${base}${TGZ}`);
      const body = new Uint8Array(await r.arrayBuffer());
      assertEquals(r.status, 200);
      assertEquals(r.headers.get("content-type"), "application/gzip");
      assertEquals(r.headers.get("cache-control"), "public, max-age=31536000, immutable");
      assertEquals([body[0], body[1]], [0x1f, 0x8b], "gzip");
      const etag = r.headers.get("etag")!;
      assertMatch(etag, /^"[0-9a-f]{32}"$/);
      const again = await fetch(`${base}${TGZ}`, { headers: { "if-none-match": etag } });
      await again.body?.cancel();
      assertEquals(again.status, 304);
      const other = await fetch(`${base}/sdk/cachely-sdk-0.0.1.tgz`);
      assertEquals([other.status, await other.text()], [
        404,
        `Not found: this instance serves ${TGZ}`,
      ]);

      const project = `${dir}/project`;
      await Deno.mkdir(project);
      await Deno.writeTextFile(
        `${project}/package.json`,
        JSON.stringify({ name: "fresh", private: true, type: "module" }),
      );
      const install = await new Deno.Command("npm", {
        args: ["install", "--no-audit", "--no-fund", "--ignore-scripts", `${base}${TGZ}`],
        cwd: project,
        env: { npm_config_cache: `${dir}/npm-cache`, npm_config_update_notifier: "false" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert(install.success, new TextDecoder().decode(install.stderr));
      const deps = JSON.parse(await Deno.readTextFile(`${project}/package.json`)).dependencies;
      assertEquals(deps["@cachely/sdk"], `${base}${TGZ}`);
      const run = await new Deno.Command("node", {
        args: [
          "--input-type=module",
          "-e",
          `import * as sdk from "@cachely/sdk";
           console.log(JSON.stringify([sdk.VERSION, typeof sdk.createCachelyFetch,
             typeof sdk.transformPrismicAssetUrls]));`,
        ],
        cwd: project,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert(run.success, new TextDecoder().decode(run.stderr));
      assertEquals(JSON.parse(new TextDecoder().decode(run.stdout)), [
        VERSION,
        "function",
        "function",
      ]);
      const bin = await Deno.stat(`${project}/node_modules/.bin/cachely`);
      assert((bin.mode! & 0o111) !== 0, "the cachely bin is executable");
    } finally {
      await stop(inst);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

dbTest(
  "Overview: the SDK is installed with npm from this instance's versioned URL",
  async (app) => {
    const owner = await signUpIn(app);
    const slug = await createTenant(owner);
    const page = await owner.get(`/dashboard/${slug}`);
    assertEquals(page.status, 200);
    const command = page.text.match(/<code data-sdk-install(?:="[^"]*")?>([^<]*)<\/code>/)?.[1];
    assertEquals(command, `npm install http://localhost:8000${TGZ}`);
    assert(!page.text.includes("Cachely checkout"), "no step needs this repository");
  },
);
