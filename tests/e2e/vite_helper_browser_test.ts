/**
 * The helper `cachely setup` writes for a Vite project, built with a real `vite build` (npm)
 * against the packed @cachely/sdk and opened in Chromium: the page's Prismic requests reach the
 * tenant host named by VITE_CACHELY_PROXY_URL (.env, as setup seeds .env.example), never the CMS.
 * Skipped with a message when Chromium, npm or the npm packages are not available.
 */
import { chromium } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { serveOnLoopback } from "../harness.ts";
import { packSdk } from "../../sdk/pack.ts";
import { CHROMIUM, CHROMIUM_ARGS, hasChromium, inCi } from "./browser.ts";

const VITE = "8.3.8";
const PRISMIC = JSON.parse(await Deno.readTextFile(new URL("../../deno.dev.json", import.meta.url)))
  .imports["@prismicio/client"].replace(/^npm:.*@/, "");
const hasNpm = new Deno.Command("sh", { args: ["-c", "command -v npm && command -v node"] })
  .outputSync().success;
if (!hasNpm) console.warn("vite_helper_browser_test: npm or node missing, skipped");

async function run(cmd: string, args: string[], cwd: string) {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { ok: out.success, text };
}

/** A Prismic repository behind the tenant host: its search finds one document, the rest is the API root. */
function prismicAnswer(path: string): Response {
  if (!path.endsWith("/documents/search")) {
    return Response.json({
      refs: [{ id: "master", ref: "REF-1", label: "Master", isMasterRef: true }],
      types: {},
      languages: [],
      tags: [],
      forms: {
        everything: {
          method: "GET",
          enctype: "application/x-www-form-urlencoded",
          action: "http://placeholder/api/v2/documents/search",
          fields: {
            ref: { type: "String", multiple: false },
            q: { type: "String", multiple: true },
            pageSize: { type: "Integer", multiple: false },
          },
        },
      },
    });
  }
  return Response.json({
    page: 1,
    results_per_page: 1,
    results_size: 1,
    total_results_size: 1,
    total_pages: 1,
    next_page: null,
    prev_page: null,
    results: [{ id: "doc-1", uid: "home", type: "page", data: { title: "Through Cachely" } }],
  });
}

Deno.test({
  name: "a Vite build of setup's Prismic helper sends its requests to the tenant host",
  ignore: (!hasChromium && !inCi) || !hasNpm,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cachely-vite-" });
    const seen: string[] = [];
    let root = "";
    const server = serveOnLoopback(async (req) => {
      const url = new URL(req.url);
      const host = req.headers.get("host") ?? "";
      if (host.startsWith("acme.localhost")) {
        seen.push(`${host}${url.pathname}`);
        const cors = {
          "access-control-allow-origin": "*",
          "access-control-allow-headers": "*",
          "access-control-expose-headers": "*",
        };
        if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
        const r = prismicAnswer(url.pathname);
        for (const [k, v] of Object.entries(cors)) r.headers.set(k, v);
        return r;
      }
      const file = url.pathname === "/" ? "/index.html" : url.pathname;
      try {
        const body = await Deno.readFile(`${root}${file}`);
        const type = file.endsWith(".js") ? "text/javascript" : "text/html";
        return new Response(body, { headers: { "content-type": type } });
      } catch {
        return new Response("not found", { status: 404 });
      }
    });
    const browser = hasChromium
      ? await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
      : null;
    try {
      const tenant = `http://acme.localhost:${server.port}`;
      await Deno.writeTextFile(
        `${dir}/package.json`,
        JSON.stringify({ name: "spa", private: true, type: "module" }),
      );
      const tgz = await packSdk(dir);
      const install = await run("npm", [
        "install",
        "--no-audit",
        "--no-fund",
        `vite@${VITE}`,
        `@prismicio/client@${PRISMIC}`,
        tgz,
      ], dir);
      if (!install.ok) {
        console.warn(`vite_helper_browser_test: npm install failed, skipped:\n${install.text}`);
        return;
      }
      const setup = await run("node_modules/.bin/cachely", [
        "setup",
        "prismic",
        "--repository",
        "my-repo",
        "--proxy-url",
        tenant,
        "--yes",
      ], dir);
      assert(setup.ok, setup.text);
      const envExample = await Deno.readTextFile(`${dir}/.env.example`);
      assert(envExample.includes(`VITE_CACHELY_PROXY_URL=${tenant}`), envExample);
      await Deno.copyFile(`${dir}/.env.example`, `${dir}/.env`); // what the user does next
      await Deno.writeTextFile(
        `${dir}/index.html`,
        `<!doctype html><title>spa</title><script type="module" src="/main.ts"></script>`,
      );
      await Deno.writeTextFile(
        `${dir}/main.ts`,
        `import { prismic } from "./cachely";
prismic.getFirst().then(
  (d) => (document.body.dataset.result = JSON.stringify({ title: d.data.title })),
  (e) => (document.body.dataset.result = JSON.stringify({ error: String(e) })),
);
`,
      );
      const build = await run("node_modules/.bin/vite", ["build", "--logLevel", "warn"], dir);
      assert(build.ok, build.text);
      root = `${dir}/dist`;
      if (!browser) throw new Error(`${CHROMIUM} is missing (CI needs it)`);
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on("request", (r) => requested.push(r.url()));
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`http://localhost:${server.port}/`);
      await page.waitForSelector("body[data-result]", { state: "attached", timeout: 15_000 });
      const result = JSON.parse((await page.getAttribute("body", "data-result"))!);
      assertEquals(errors, []);
      assertEquals(result, { title: "Through Cachely" }, requested.join("\n"));
      assertEquals(requested.filter((u) => u.includes("prismic.io")), []);
      assert(seen.some((s) => s.includes("/~api/")), seen.join("\n"));
    } finally {
      await browser?.close();
      await server.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
