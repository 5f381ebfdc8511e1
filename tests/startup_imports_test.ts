/**
 * A fresh process loads only what serving needs (cold start, resident memory):
 * the SDKs that only some requests use (model calls, billing, OAuth sign-in, password
 * hashing), the embedded database, the management API's routes and the dashboard's page
 * groups are imported on first use. They must still be `import()`s of literal specifiers, which `deno info` (and Deno
 * Deploy) resolve ahead; deno.json's `lazy-dynamic-imports` keeps `deno run` from loading
 * them (and their whole graphs) at start all the same.
 */
import { assert, assertEquals } from "./assert.ts";
import { PAGE_GROUP_PREFIXES, pageRoutes } from "../routes/pages/mod.tsx";
import { pageGroups } from "../routes/pages/groups.tsx";

/**
 * npm packages main.ts must not import statically, each still imported dynamically. tldts
 * (the Public Suffix List) only when two configured hosts could share a site.
 */
const LAZY = ["openai", "stripe", "arctic", "hash-wasm", "@electric-sql/pglite", "tldts"];
/**
 * Not on main.ts's static graph at all: the control half (database driver and ORM, the
 * management app's router and renderer), loaded behind the edge (cold start), and
 * Node's zlib, loaded on the first coded upstream body (it starts Node compatibility).
 */
const CONTROL_HALF = ["postgres", "drizzle-orm", "hono", "preact", "preact-render-to-string"];
/** Project modules likewise (paths from the repository root). */
const LAZY_LOCAL = [
  // the control half: database, services, management app, loops (main.ts imports it)
  "lib/bootstrap.ts",
  "routes/api/mod.ts",
  "routes/pages/groups.tsx",
  // with npm:@opentelemetry/api, loaded only when OTEL_DENO=true
  "edge/telemetry.ts",
  // the database driver, patched (vendor/postgres/README.md)
  "vendor/postgres/src/index.js",
];
const ROOT = new URL("..", import.meta.url).href;

type Dep = { code?: { specifier?: string }; isDynamic?: boolean };
type Info = { roots: string[]; modules: Array<{ specifier: string; dependencies?: Dep[] }> };

async function info(entry: string): Promise<Info> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout)) as Info;
}

/** npm:name@version[/path] → name. */
const npmName = (s: string) => /^npm:\/?((?:@[^/@]+\/)?[^/@]+)/.exec(s)?.[1];

Deno.test("main.ts imports rarely needed SDKs and modules on first use, with literal specifiers", async () => {
  const { roots, modules } = await info("../main.ts");
  const deps = new Map(modules.map((m) => [m.specifier, m.dependencies ?? []]));
  // Static reach: what evaluating main.ts loads before it serves anything.
  const reached = new Set<string>(roots);
  const todo = [...roots];
  const staticNpm = new Map<string, string>(); // package → the module importing it
  const dynamicNpm = new Set<string>();
  const dynamicLocal = new Set<string>();
  while (todo.length) {
    const from = todo.pop()!;
    for (const d of deps.get(from) ?? []) {
      const to = d.code?.specifier;
      if (!to) continue; // `import type`
      const pkg = npmName(to);
      if (d.isDynamic) {
        if (pkg) dynamicNpm.add(pkg);
        else dynamicLocal.add(to.replace(ROOT, ""));
        continue;
      }
      if (pkg) staticNpm.set(pkg, from);
      if (!reached.has(to)) {
        reached.add(to);
        todo.push(to);
      }
    }
  }
  const eager = [...LAZY, ...CONTROL_HALF].filter((p) => staticNpm.has(p))
    .map((p) => `${p} (${staticNpm.get(p)})`);
  assertEquals(eager, [], "imported at start-up");
  // Anywhere in the graph (behind the control half's own import() too).
  for (const m of modules) {
    for (const d of m.dependencies ?? []) {
      const to = d.isDynamic ? d.code?.specifier : undefined;
      if (!to) continue;
      const pkg = npmName(to);
      if (pkg) dynamicNpm.add(pkg);
      else dynamicLocal.add(to.replace(ROOT, ""));
    }
  }
  assertEquals(LAZY.filter((p) => !dynamicNpm.has(p)), [], "no literal import() left");
  assertEquals(LAZY_LOCAL.filter((p) => reached.has(ROOT + p)), [], "loaded at start-up");
  assertEquals(["app.ts", "node:zlib"].filter((p) => reached.has(ROOT + p) || reached.has(p)), []);
  assertEquals(LAZY_LOCAL.filter((p) => !dynamicLocal.has(p)), [], "no literal import() left");
});

Deno.test("the lazily loaded page groups answer only under PAGE_GROUP_PREFIXES, and only they do", () => {
  const under = (path: string) =>
    PAGE_GROUP_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
  const dispatch = () => new Response();
  const lazy = pageGroups(dispatch).routes.map((r) => `${r.method} ${r.path}`);
  assert(lazy.length > 20, lazy.join(", "));
  assertEquals(lazy.filter((r) => !under(r.split(" ")[1])), [], "outside the prefixes");
  const eager = pageRoutes(dispatch).routes.map((r) => `${r.method} ${r.path}`);
  assertEquals(eager.filter((r) => under(r.split(" ")[1])), [], "eager routes under a prefix");
});

Deno.test("deno run loads literal import()s when they run, not at start (deno.json)", async () => {
  // Without it, `deno run` walks every literal import() at start: a never-taken
  // `import("../routes/api/mod.ts")` cost ~60 ms of CPU (docs/decisions.md "Start-up imports").
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assert((config.unstable ?? []).includes("lazy-dynamic-imports"), JSON.stringify(config.unstable));
});
