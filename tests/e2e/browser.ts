/**
 * Debian's Chromium for browser tests: where it is, how it must be started on these
 * machines (DESIGN "Gotchas"), and whether tests may run. Without it the tests fail in
 * CI (CI=true) and are skipped locally with a message.
 */
import { chromium, type Page } from "playwright-core";
import { BACKENDS, createTestApp, serveOnLoopback } from "../harness.ts";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-quic",
  "--disable-sync",
];
export const hasChromium = await Deno.stat(CHROMIUM).then(() => true, () => false);
export const inCi = ["true", "1"].includes((Deno.env.get("CI") ?? "").toLowerCase());
if (!hasChromium && !inCi) {
  console.warn(
    `tests/e2e: ${CHROMIUM} is missing, browser tests skipped (apt-get install chromium)`,
  );
}

/** The island bundle is a build product (deno task build); browser tests build it first. */
export async function buildIslands(): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "build"],
    cwd: new URL("../../", import.meta.url),
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno task build failed: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/**
 * A test app served on a loopback port (PUBLIC_URL and PROXY_DOMAIN name that port, `env`
 * adds to them), the island bundle built, and Chromium launched. `watch(page)` records
 * script errors and CSP refusals in `problems`; `close()` stops the browser, the app and the server.
 */
export async function browserApp(env: Record<string, string> = {}) {
  await buildIslands();
  let handler: Deno.ServeHandler = () => new Response("starting", { status: 503 });
  const server = serveOnLoopback((req, info) => handler(req, info));
  const origin = `http://localhost:${server.port}`;
  const app = await createTestApp(BACKENDS[0], {
    env: { PROXY_DOMAIN: `localhost:${server.port}`, PUBLIC_URL: origin, ...env },
  });
  handler = (req, info) => app.handler(req, info);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const problems: string[] = [];
  const watch = (page: Page) => {
    page.on("pageerror", (e) => problems.push(e.message));
    // Status errors (favicon, 400 pages) are expected; CSP refusals are not.
    page.on(
      "console",
      (m) => /Refused|Content Security Policy/.test(m.text()) && problems.push(m.text()),
    );
  };
  return {
    origin,
    app,
    browser,
    problems,
    watch,
    async close() {
      await browser.close();
      await app.close();
      await server.close();
    },
  };
}

/**
 * GETs a JSON URL as the page's browser context (its cookies), from the test process. Not
 * `page.request`: Playwright's request context sets an http `lookup` option that Deno 2.5's
 * node:http does not implement.
 */
export async function getAsPage(page: Page, url: string): Promise<Response> {
  const cookies = await page.context().cookies(url);
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  return await fetch(url, { headers: cookie ? { cookie } : {} });
}
