import { assert, assertEquals, assertMatch } from "../tests/assert.ts";
import { runSetup, type SetupIo } from "./setup.ts";
import { PATCH_MARK, patchPrismicClient } from "./setup_prismic_client.ts";
import { bin, COMPLEX_CLIENT, NUXT_CLIENT } from "./setup_fixtures.ts";
import { detectProject } from "./setup_detect.ts";

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
      sdkVersion: "0.14.0",
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
  assertEquals(await runSetup(["setup"], io, "0.14.0"), 0, out.join("\n"));
  assertEquals(asked, ["contentful spaceId: ", "Cachely tenant slug: "]);
  const cfg = JSON.parse(files.get("cachely.config.json")!);
  assertEquals([cfg.tenant, cfg.provider.spaceId, cfg.framework], ["acme", "abc123xyz", "vite"]);
  assert(out.join("\n").includes("import.meta.env.VITE_CACHELY_TENANT"), out.join("\n"));
});

// ---- the original product's setup, on one fixture project per framework ----

async function fixture(pkg: unknown, files: Record<string, string> = {}): Promise<string> {
  const dir = await project(pkg);
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return dir;
}

const read = (dir: string, name: string) => Deno.readTextFile(`${dir}/${name}`).catch(() => null);
const PROXY = ["--proxy-url", "http://acme.localhost:8000"];

Deno.test("cachely setup writes the helper where each framework keeps it, and .env.example", async () => {
  const cases: [string, unknown, Record<string, string>, string][] = [
    ["next", { dependencies: { next: "15", contentful: "11" } }, {}, "lib/cachely.ts"],
    ["nuxt", { dependencies: { nuxt: "3", contentful: "11" } }, {}, "composables/useCachely.ts"],
    ["nuxt+utils", { dependencies: { nuxt: "3" } }, { "utils/.keep": "" }, "utils/cachely.ts"],
    ["vite", { devDependencies: { vite: "6" } }, { ".env.example": "API=1" }, "cachely.ts"],
    ["plain", {}, {}, "cachely.ts"],
  ];
  for (const [name, pkg, files, helper] of cases) {
    const dir = await fixture(pkg, files);
    try {
      const args = ["setup", ...PROXY, "--space-id", "abc123xyz", "--yes", "--dir", dir];
      const dry = await bin("/", [...args, "--dry-run"]);
      assertEquals(dry.code, 0, `${name}: ${dry.stderr}`);
      assert(dry.stdout.includes(`would write ${helper}`), `${name}: ${dry.stdout}`);
      const variable = { next: "NEXT_PUBLIC_", nuxt: "NUXT_PUBLIC_", vite: "VITE_" }[
        name.replace(/\+.*/, "")
      ] ?? "";
      assert(
        dry.stdout.includes(`would add ${variable}CACHELY_PROXY_URL to .env.example`),
        dry.stdout,
      );
      assertEquals(await read(dir, helper), null, `${name}: --dry-run writes nothing`);
      assertEquals(await read(dir, "cachely.config.json"), null);

      const r = await bin("/", args);
      assertEquals(r.code, 0, `${name}: ${r.stderr}`);
      const code = await read(dir, helper);
      assert(code?.startsWith("// Generated by cachely setup"), `${name}: ${code}`);
      const env = await read(dir, ".env.example");
      assert(
        env?.includes(`\n${variable}CACHELY_PROXY_URL=http://acme.localhost:8000`),
        `${name}: ${env}`,
      );
      if (files[".env.example"]) assert(env!.startsWith("API=1\n"), "the existing lines stay");
      assertEquals(await read(dir, "node_modules/@cachely/sdk/package.json"), null, "no install");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("setup prismic = init prismic = setup --provider prismic (the Prismic onboarder)", async () => {
  const outputs: string[] = [];
  for (
    const args of [["setup", "prismic"], ["init", "prismic"], ["setup", "--provider", "prismic"]]
  ) {
    const dir = await fixture({ dependencies: { nuxt: "3" } });
    try {
      const r = await bin(dir, [...args, ...PROXY, "--repository", "my-repo", "--yes"]);
      assertEquals(r.code, 0, r.stderr);
      const code = await read(dir, "composables/useCachelyPrismicClient.ts");
      assert(code?.includes("createCachelyPrismicClient({"), String(code));
      assert(code!.includes('repositoryName: "my-repo"'), code!);
      outputs.push(code!);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  assertEquals(new Set(outputs).size, 1, "the three spellings write the same");
});

Deno.test("setup: Sanity writes cachely.config.json; a file setup did not write needs --yes", async () => {
  const dir = await fixture({ dependencies: { next: "15", "@sanity/client": "6" } }, {
    "lib/cachely.ts": "export const mine = 1;\n",
  });
  try {
    const r = await bin(dir, ["setup", ...PROXY, "--project-id", "p1x2"]);
    assertEquals(r.code, 0, r.stderr);
    const cfg = JSON.parse((await read(dir, "cachely.config.json"))!);
    assertEquals(cfg.provider, { cms: "sanity", projectId: "p1x2" });
    assertEquals(await read(dir, "lib/cachely.ts"), "export const mine = 1;\n", "left alone");
    assert(r.stderr.includes("Left lib/cachely.ts alone"), r.stderr);
    const yes = await bin(dir, ["setup", ...PROXY, "--project-id", "p1x2", "--force", "--yes"]);
    assertEquals(yes.code, 0, yes.stderr);
    const code = (await read(dir, "lib/cachely.ts"))!;
    assert(code.includes('id: "sanity"') && code.includes("cdn.sanity.io"), code);
    assert(code.includes("p1x2.apicdn.sanity.io"), code);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("setup: bad input names the option and exits 2", async () => {
  const dir = await fixture({});
  try {
    const cases: [string[], string][] = [
      [["setup", "wordpress", ...PROXY, "--yes"], "--provider"],
      [
        ["setup", "--provider", "generic", ...PROXY, "--api-hosts", "not a host/", "--yes"],
        "--api-hosts[0]",
      ],
      [["setup", ...PROXY, "--yes", "--dir", `${dir}/missing`], "--dir"],
      [["setup", "--proxy-url", "ftp://x", "--yes"], "--proxy-url"],
    ];
    for (const [args, option] of cases) {
      const r = await bin(dir, args);
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.stdout} ${r.stderr}`);
      assert(r.stderr.includes(option), `${option}: ${r.stderr}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// ---- the Nuxt Prismic client (@nuxtjs/prismic's ~/app/prismic/client) ----

Deno.test("patchPrismicClient: the trivial shapes become createCachelyPrismicClient", () => {
  const p = patchPrismicClient(NUXT_CLIENT);
  assertEquals(p.status, "patched");
  assertEquals(
    (p as { text: string }).text,
    `${PATCH_MARK}: through Cachely when CACHELY_PROXY_URL is set, straight to Prismic when it is not.
import { createCachelyPrismicClient } from "@cachely/sdk/prismic";
import sm from "../../slicemachine.config.json";

export default createCachelyPrismicClient({
  repositoryName: sm.repositoryName,
  accessToken: process.env.PRISMIC_ACCESS_TOKEN,
  routes: [{ type: "page", path: "/:uid" }],
});
`,
  );
  const cases: [string, string][] = [
    [
      `import { createClient } from '@prismicio/client'\nexport default createClient('my-repo')\n`,
      `createCachelyPrismicClient({ repositoryName: 'my-repo' })`,
    ],
    [
      `import { createClient as make } from "@prismicio/client";\nexport default () => make("https://my-repo.cdn.prismic.io/api/v2", config);\n`,
      `createCachelyPrismicClient({ repositoryName: "my-repo", ...config })`,
    ],
    [
      `// the client\nimport * as prismic from "@prismicio/client";\nimport { repositoryName } from "./repo";\nexport default prismic.createClient(repositoryName, { accessToken: "x", });\n`,
      `createCachelyPrismicClient({ repositoryName, accessToken: "x", })`,
    ],
  ];
  for (const [src, call] of cases) {
    const r = patchPrismicClient(src);
    assertEquals(r.status, "patched", src);
    const text = (r as { text: string }).text;
    assert(text.includes(call), text);
    assert(!text.includes("@prismicio/client"), text);
    assertEquals(patchPrismicClient(text).status, "already", "a second run leaves it");
  }
});

Deno.test("patchPrismicClient: anything else is left alone, saying why", () => {
  const complex: [string, RegExp][] = [
    [COMPLEX_CLIENT, /used for more than createClient/],
    [
      `import { createClient } from "@prismicio/client";\nexport const a = createClient("a");\nexport const b = createClient("b");\n`,
      /2 createClient calls/,
    ],
    [
      `import { createClient, filter } from "@prismicio/client";\nexport default createClient("a");\n`,
      /no `import \* as prismic`/,
    ],
    [
      'import * as prismic from "@prismicio/client";\nexport default prismic.createClient(`${repo}-x`);\n',
      /arguments/,
    ],
    [
      `import * as prismic from "@prismicio/client";\nexport default prismic.createClient("https://example.com/api/v2");\n`,
      /endpoint/,
    ],
    [
      `import * as prismic from "@prismicio/client";\nexport default prismic.createClient("a", { ...base(), x: 1 }, extra);\n`,
      /arguments/,
    ],
    [`export default makeClient();\n`, /no `import/],
  ];
  for (const [src, why] of complex) {
    const r = patchPrismicClient(src);
    assertEquals(r.status, "complex", src);
    assertMatch((r as { reason: string }).reason, why);
  }
});

Deno.test("setup prismic on Nuxt: patches a trivial app/prismic/client.js, leaves a complex one with instructions", async () => {
  const args = ["setup", "prismic", ...PROXY, "--repository", "my-repo"];
  // trivial + --yes: patched
  const simple = await fixture({ dependencies: { nuxt: "3" } }, {
    "app/prismic/client.js": NUXT_CLIENT,
  });
  // trivial without --yes (no terminal): left alone, with the instructions
  const noYes = await fixture({ dependencies: { nuxt: "3" } }, {
    "app/prismic/client.js": NUXT_CLIENT,
  });
  const complex = await fixture({ dependencies: { nuxt: "3" } }, {
    "app/prismic/client.ts": COMPLEX_CLIENT,
  });
  try {
    const dry = await bin(simple, [...args, "--yes", "--dry-run"]);
    assert(dry.stdout.includes("would patch app/prismic/client.js"), dry.stdout);
    assertEquals(await read(simple, "app/prismic/client.js"), NUXT_CLIENT, "dry run");

    const r = await bin(simple, [...args, "--yes"]);
    assertEquals(r.code, 0, r.stderr);
    assert(r.stdout.includes("Patched app/prismic/client.js"), r.stdout);
    const patched = (await read(simple, "app/prismic/client.js"))!;
    assert(patched.includes("createCachelyPrismicClient({"), patched);
    assert(await read(simple, "composables/useCachelyPrismicClient.ts"), "the composable too");
    const again = await bin(simple, [...args, "--yes", "--force"]);
    assertEquals(again.code, 0, again.stderr);
    assertEquals(await read(simple, "app/prismic/client.js"), patched, "patched once");

    const left = await bin(noYes, args);
    assertEquals(left.code, 0, left.stderr);
    assertEquals(await read(noYes, "app/prismic/client.js"), NUXT_CLIENT);
    assert(left.stdout.includes("--yes patches it"), left.stdout);
    assert(left.stdout.includes("createCachelyPrismicClient({ repositoryName"), left.stdout);

    const c = await bin(complex, [...args, "--yes"]);
    assertEquals(c.code, 0, c.stderr);
    assertEquals(await read(complex, "app/prismic/client.ts"), COMPLEX_CLIENT, "left alone");
    assert(c.stdout.includes("app/prismic/client.ts was left alone (prismic is used"), c.stdout);
    assert(c.stdout.includes('from "@cachely/sdk/prismic"'), c.stdout);
    const json = await bin(complex, [...args, "--yes", "--force", "--json"]);
    assertEquals(JSON.parse(json.stdout).prismicClient.patched, false);
  } finally {
    for (const d of [simple, noYes, complex]) await Deno.remove(d, { recursive: true });
  }
});

Deno.test("setup prismic on Nuxt asks before patching the client on a terminal", async () => {
  const files = new Map<string, string>([
    ["package.json", JSON.stringify({ dependencies: { nuxt: "3" } })],
    ["app/prismic/client.js", NUXT_CLIENT],
  ]);
  const asked: string[] = [];
  const io: SetupIo = {
    out: () => {},
    err: () => {},
    readFile: (n) => Promise.resolve(files.get(n) ?? null),
    writeFile: (n, t) => Promise.resolve(void files.set(n, t)),
    interactive: true,
    ask: (q) => {
      asked.push(q);
      return Promise.resolve("n");
    },
  };
  const code = await runSetup(
    ["setup", "prismic", "--repository", "my-repo", "--tenant", "acme"],
    io,
    "0.14.0",
  );
  assertEquals(code, 0);
  assertEquals(asked, ["Patch app/prismic/client.js to go through Cachely? [Y/n] "]);
  assertEquals(files.get("app/prismic/client.js"), NUXT_CLIENT, "no: left alone");
});
