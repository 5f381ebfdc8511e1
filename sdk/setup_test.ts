import { assert, assertEquals } from "../tests/assert.ts";
import { runSetup, type SetupIo } from "./setup.ts";
import { detectProject } from "./setup_detect.ts";

const BIN = new URL("./dist/bin/cachely.mjs", import.meta.url).pathname;

/** Runs the built bin in Node in `dir`. */
async function bin(dir: string, args: string[]) {
  const out = await new Deno.Command("node", {
    args: [BIN, ...args],
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function project(pkg: unknown): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cachely-setup-" });
  await Deno.writeTextFile(`${dir}/package.json`, JSON.stringify(pkg));
  return dir;
}

Deno.test("detectProject() finds the framework and the CMS package", () => {
  assertEquals(detectProject({ dependencies: { next: "15", contentful: "11" } }), {
    framework: "next",
    provider: "contentful",
    providerPackage: "contentful",
  });
  assertEquals(
    detectProject({ dependencies: { astro: "5" }, devDependencies: { "@prismicio/client": "7" } })
      .provider,
    "prismic",
  );
  assertEquals(
    detectProject({ dependencies: { "@sveltejs/kit": "2", vite: "6" } }).framework,
    "sveltekit",
  );
  assertEquals(detectProject({}), { framework: "unknown", provider: null, providerPackage: null });
});

Deno.test("cachely setup (built bin, Node): detects, writes cachely.config.json, prints the changes", async () => {
  const dir = await project({ dependencies: { next: "15.0.0", "@prismicio/client": "7.22.0" } });
  try {
    const r = await bin(dir, ["setup", "--tenant", "acme", "--repository", "my-repo", "--yes"]);
    assertEquals(r.code, 0, r.stderr);
    const cfg = JSON.parse(await Deno.readTextFile(`${dir}/cachely.config.json`));
    assertEquals(cfg, {
      tenant: "acme",
      provider: { cms: "prismic", repository: "my-repo" },
      framework: "next",
      sdkVersion: "0.13.0",
    });
    assert(r.stdout.includes("NEXT_PUBLIC_CACHELY_TENANT=acme"), r.stdout);
    assert(r.stdout.includes("NEXT_PUBLIC_PRISMIC_REPOSITORY=my-repo"), r.stdout);
    assert(r.stdout.includes("createCachelyPrismicClient({ repositoryName:"), r.stdout);
    assert(r.stdout.includes("PRISMIC_ACCESS_TOKEN"), r.stdout); // to remove from the browser

    // An existing config is kept unless --force; usage errors exit 2.
    const again = await bin(dir, ["setup", "--tenant", "acme", "--yes"]);
    assertEquals(again.code, 2);
    assert(again.stderr.includes("--force"), again.stderr);
    const badTenant = await bin(dir, ["init", "--tenant", "Acme!", "--force", "--yes"]);
    assertEquals(badTenant.code, 2);
    assert(badTenant.stderr.includes("invalid option tenant"), badTenant.stderr);
    const badId = await bin(dir, [
      "init",
      "--tenant",
      "acme",
      "--provider",
      "contentful",
      "--force",
      "--yes",
    ]);
    assertEquals(badId.code, 2);
    assert(badId.stderr.includes("provider.spaceId"), badId.stderr);
    const noTenant = await bin(dir, ["init", "--force", "--yes"]);
    assertEquals(noTenant.code, 2);
    assert(noTenant.stderr.includes("--tenant"), noTenant.stderr);
    assertEquals((await bin(dir, ["--help"])).code, 0);
    assertEquals((await bin(dir, ["deploy"])).code, 2);

    // init: the config only.
    const init = await bin(dir, [
      "init",
      "--custom-domain",
      "cdn.acme.com",
      "--provider",
      "cloudinary",
      "--cloud-name",
      "demo",
      "--force",
      "--yes",
    ]);
    assertEquals(init.code, 0, init.stderr);
    assertEquals(init.stdout.trim().split("\n").length, 1, init.stdout);
    const cfg2 = JSON.parse(await Deno.readTextFile(`${dir}/cachely.config.json`));
    assertEquals(cfg2.customDomain, "cdn.acme.com");
    assertEquals(cfg2.provider, { cms: "cloudinary", cloudName: "demo" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cachely setup asks for what is missing when interactive", async () => {
  const files = new Map<string, string>([
    ["package.json", JSON.stringify({ dependencies: { vite: "6", contentful: "11" } })],
  ]);
  const asked: string[] = [];
  const answers = ["abc123xyz", "acme"];
  const out: string[] = [];
  const io: SetupIo = {
    out: (t) => out.push(t),
    err: (t) => out.push(t),
    readFile: (n) => Promise.resolve(files.get(n) ?? null),
    writeFile: (n, t) => Promise.resolve(void files.set(n, t)),
    interactive: true,
    ask: (q) => {
      asked.push(q);
      return Promise.resolve(answers.shift() ?? "");
    },
  };
  assertEquals(await runSetup(["setup"], io, "0.13.0"), 0, out.join("\n"));
  assertEquals(asked, ["contentful spaceId: ", "Cachely tenant slug: "]);
  const cfg = JSON.parse(files.get("cachely.config.json")!);
  assertEquals([cfg.tenant, cfg.provider.spaceId, cfg.framework], ["acme", "abc123xyz", "vite"]);
  assert(out.join("\n").includes("import.meta.env.VITE_CACHELY_TENANT"), out.join("\n"));
});
