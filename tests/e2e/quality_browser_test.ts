/**
 * The dashboard's quality bar in Debian's Chromium (playwright-core), over every page:
 * axe-core finds no serious or critical violation in the light and the dark theme;
 * keyboard-only use (Tab) reaches every visible control and each shows a focus ring; at
 * 390 px nothing scrolls sideways. Screenshots of each page at 1280×800 and 390×844 go to
 * tests/e2e/screenshots/ (git-ignored) for a reviewer to look at.
 */
import { type BrowserContext, chromium, type Page } from "playwright-core";
import axe from "axe-core";
import { assertEquals } from "../assert.ts";
import { BACKENDS, createTestApp, serveOnLoopback, tenantIdOf, type TestApp } from "../harness.ts";
import { seedUsageDays } from "../fakes/usage_rows.ts";
import { utcDay } from "../../lib/usage/days.ts";
import { buildIslands, CHROMIUM, CHROMIUM_ARGS, hasChromium, inCi } from "./browser.ts";
import { screenshot } from "./screenshot.ts";
import { TENANT_AREAS, tenantHref } from "../../components/nav.ts";

const backend = BACKENDS[0];
const SHOTS = new URL("./screenshots/", import.meta.url);
const ROOT = "root@example.com";
const PASSWORD = "correct horse battery";
const VIEWPORTS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }] as const;

type Target = { name: string; path: string; as: "anon" | "admin" | "user" };

/** A user with a session cookie, signed up through the API. */
async function session(origin: string, email: string): Promise<string> {
  const r = await fetch(`${origin}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (r.status !== 201) throw new Error(`signup ${email}: ${r.status} ${await r.text()}`);
  const cookie = r.headers.getSetCookie()[0].split(";")[0];
  return cookie;
}

async function api(origin: string, cookie: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${origin}${path}`, {
    method,
    headers: { "content-type": "application/json", origin, cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await r.json().catch(() => null);
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

/** Seeds a tenant with a little of everything, so pages show content, not only empty states. */
async function seed(app: TestApp, origin: string, admin: string, user: string) {
  const slug = "acme";
  await api(origin, admin, "POST", "/api/tenants", {
    slug,
    cms: "generic",
    originUrl: "https://assets.example.com",
  });
  await api(origin, user, "POST", "/api/tenants", {
    slug: "solo",
    cms: "generic",
    originUrl: "https://assets.example.com",
  });
  await api(origin, admin, "POST", "/api/user/tokens", { name: "ci-deploy" });
  await api(origin, admin, "POST", `/api/tenants/${slug}/cache-refresh-webhooks`, {
    provider: "sanity",
  });
  await api(origin, admin, "POST", `/api/tenants/${slug}/ai-experiments`, {
    name: "Formal titles",
    routePattern: "/posts",
    variants: [{ key: "control" }, { key: "formal", weight: 2, label: "Formal tone" }],
  });
  const today = utcDay(app.clock.now());
  await seedUsageDays(
    app,
    await tenantIdOf(app, slug),
    Array.from({ length: Number(today.slice(8, 10)) }, (_, i) => ({
      day: `${today.slice(0, 8)}${String(i + 1).padStart(2, "0")}`,
      requests: 800 + ((i * 137) % 500),
      bytes: (40 + ((i * 53) % 90)) * 1024 * 1024,
      hits: 600 + ((i * 71) % 200),
      misses: 150,
    })),
  );
  app.services.log.warn("disk almost full", { freeMb: 120 });
  app.services.log.error("upstream timed out", { tenant: slug });
  return { slug };
}

function targets(slug: string, userId: string): Target[] {
  return [
    { name: "home", path: "/", as: "anon" },
    { name: "login", path: "/login", as: "anon" },
    { name: "signup", path: "/signup", as: "anon" },
    { name: "forgot-password", path: "/forgot-password", as: "anon" },
    { name: "reset-password", path: "/reset-password?token=cly_pwr_example", as: "anon" },
    { name: "tenants", path: "/dashboard", as: "admin" },
    ...TENANT_AREAS.map((a): Target => ({
      name: `tenant-${a.path || "overview"}`,
      path: tenantHref(slug, a.path),
      as: "admin",
    })),
    { name: "account-profile", path: "/account/profile", as: "admin" },
    { name: "account-password", path: "/account/password", as: "admin" },
    { name: "account-tokens", path: "/account/tokens", as: "admin" },
    { name: "account-billing", path: "/account/billing", as: "admin" },
    { name: "admin-overview", path: "/admin", as: "admin" },
    { name: "admin-users", path: "/admin/users", as: "admin" },
    { name: "admin-user", path: `/admin/users/${userId}`, as: "admin" },
    { name: "admin-usage", path: "/admin/usage", as: "admin" },
    { name: "admin-tenant", path: `/admin/tenants/${slug}`, as: "admin" },
    { name: "admin-logs", path: "/admin/logs", as: "admin" },
    { name: "admin-platform", path: "/admin/platform", as: "admin" },
    { name: "admin-forbidden", path: "/admin", as: "user" },
  ];
}

type Violation = { page: string; theme: string; id: string; impact: string; nodes: string[] };

type AxeResult = {
  violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
};
type AxeWindow = { axe: { run(ctx: Document, opts: unknown): Promise<AxeResult> } };

/** Every rule of these tags; `colorsOnly`: the rules a theme can change (dark after light). */
async function axeViolations(
  page: Page,
  colorsOnly = false,
): Promise<Omit<Violation, "page" | "theme">[]> {
  await page.addScriptTag({ content: (axe as unknown as { source: string }).source });
  const runOnly = colorsOnly
    ? { type: "rule", values: ["color-contrast", "link-in-text-block"] }
    : { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] };
  const result = await page.evaluate(
    (runOnly) => (globalThis as unknown as AxeWindow).axe.run(document, { runOnly }),
    runOnly,
  );
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? "",
      nodes: v.nodes.map((n) => n.target.join(" ")),
    }));
}

/**
 * Tabs through the page: which visible controls were never reached, and which were reached
 * without a visible focus indicator (outline or box-shadow). A focusin listener records each
 * stop, so a Tab costs one round trip to the browser, not two.
 */
async function keyboardWalk(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const controls = await page.evaluate(() => {
    const sel = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]";
    let i = 0;
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(sel))) {
      if (el.tabIndex < 0 || (el as HTMLButtonElement).disabled) continue;
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      el.dataset.kbd = String(++i);
      out.push(el.dataset.kbd);
    }
    type Stop = { id: string; ring: boolean; what: string };
    const stops: Stop[] = [];
    (globalThis as unknown as { kbdStops: Stop[] }).kbdStops = stops;
    document.addEventListener("focusin", (e) => {
      const el = e.target as HTMLElement;
      const cs = getComputedStyle(el);
      const ring = (cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) > 0) ||
        cs.boxShadow !== "none";
      stops.push({
        id: el.dataset.kbd ?? "",
        ring,
        what: `${el.tagName.toLowerCase()} "${
          (el.textContent ?? el.getAttribute("name") ?? "").trim().slice(0, 40)
        }"`,
      });
    });
    return out;
  });
  for (let n = 0; n < controls.length + 5; n++) await page.keyboard.press("Tab");
  const stops = await page.evaluate(() =>
    (globalThis as unknown as { kbdStops: { id: string; ring: boolean; what: string }[] })
      .kbdStops
  );
  const reached = new Set<string>();
  const unringed: string[] = [];
  for (const f of stops) {
    if (f.id) reached.add(f.id);
    if (!f.ring) unringed.push(f.what);
    if (reached.size === controls.length) break;
  }
  const missed = await page.evaluate((ids) =>
    ids.map((id) => {
      const el = document.querySelector<HTMLElement>(`[data-kbd="${id}"]`)!;
      return `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    }), controls.filter((id) => !reached.has(id)));
  return { count: controls.length, missed, unringed };
}

Deno.test({
  name: "dashboard quality in Chromium: axe (light, dark), keyboard, 390 px, screenshots",
  ignore: !hasChromium && !inCi,
  sanitizeResources: false, // Chromium is a child process: Playwright's pipe to it settles after browser.close()
  sanitizeOps: false,
  async fn() {
    if (!hasChromium) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
    await buildIslands();
    await Deno.mkdir(SHOTS, { recursive: true });
    let handler: Deno.ServeHandler = () => new Response("starting", { status: 503 });
    const server = serveOnLoopback((req, info) => handler(req, info));
    const origin = `http://localhost:${server.port}`;
    const app = await createTestApp(backend, {
      env: {
        PROXY_DOMAIN: `localhost:${server.port}`,
        PUBLIC_URL: origin,
        ADMIN_EMAILS: ROOT,
        STRIPE_SECRET_KEY: "sk_test_quality",
        STRIPE_PRICE_PRO: "price_pro",
        LOG_LEVEL: "info",
        QUOTAS: "on",
      },
    });
    handler = (req, info) => app.handler(req, info);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const contexts: BrowserContext[] = [];
    try {
      const admin = await session(origin, ROOT);
      const user = await session(origin, "plain@example.com");
      const me = await api(origin, user, "GET", "/api/auth/me");
      const { slug } = await seed(app, origin, admin, user);
      const cookies = { admin, user } as const;

      const violations: Violation[] = [];
      const keyboard: string[] = [];
      const sideways: string[] = [];
      const scriptErrors: string[] = [];
      const wrongStatus: string[] = [];
      let controls = 0;
      /** One browser context per viewer, theme and viewport, created on first use. */
      /** Promises, so renders running at once share a context instead of racing to make it. */
      const made = new Map<string, Promise<BrowserContext>>();
      const newContext = async (
        who: Target["as"],
        theme: string,
        vp: typeof VIEWPORTS[number],
      ) => {
        const ctx = await browser.newContext({
          viewport: vp,
          colorScheme: theme as "light" | "dark",
          bypassCSP: true, // lets axe's script in under the pages' CSP
        });
        contexts.push(ctx);
        if (who !== "anon") {
          const [name, value] = cookies[who].split("=");
          await ctx.addCookies([{ name, value, url: origin }]);
        }
        return ctx;
      };
      const contextFor = (who: Target["as"], theme: string, vp: typeof VIEWPORTS[number]) => {
        const key = `${who} ${theme} ${vp.width}`;
        let ctx = made.get(key);
        if (!ctx) made.set(key, ctx = newContext(who, theme, vp));
        return ctx;
      };
      // Light at both sizes, dark at the desktop size: axe in both themes, the keyboard walk
      // once, the sideways-scroll check on the phone.
      const runs = [
        { theme: "light", vp: VIEWPORTS[0] },
        { theme: "dark", vp: VIEWPORTS[0] },
        { theme: "light", vp: VIEWPORTS[1] },
      ] as const;
      // The checks can fail: axe flags a known violation, the walk a control without a ring.
      const probe = await (await contextFor("anon", "light", VIEWPORTS[0])).newPage();
      await probe.setContent(
        '<html lang="en"><title>x</title><main><img src="x.png"><a href="#" style="outline:none">a</a></main></html>',
      );
      const known = await axeViolations(probe);
      assertEquals(known.some((v) => v.id === "image-alt"), true, "axe reports a missing alt");
      const probeWalk = await keyboardWalk(probe);
      assertEquals(probeWalk.unringed.length, 1, "the walk sees a control without a ring");
      await probe.close();

      let checked = 0;
      const check = async (t: Target, theme: string, vp: typeof VIEWPORTS[number]) => {
        const page = await (await contextFor(t.as, theme, vp)).newPage();
        page.on("pageerror", (e) => scriptErrors.push(`${t.name}: ${e.message}`));
        const res = await page.goto(`${origin}${t.path}`, { waitUntil: "load" });
        const expected = t.name === "admin-forbidden" ? 403 : 200;
        if (res?.status() !== expected) wrongStatus.push(`${t.name}: ${res?.status()}`);
        const where = `${t.name} ${vp.width}px ${theme}`;
        // Folded forms (edit a rule, an experiment) are checked too: unfold them all.
        await page.evaluate(() => {
          for (const d of Array.from(document.querySelectorAll("main details"))) {
            (d as HTMLDetailsElement).open = true;
          }
        });
        await screenshot(page, {
          path: new URL(`${t.name}-${vp.width}-${theme}.png`, SHOTS).pathname,
          fullPage: true,
        });
        if (vp.width === 390) {
          const w = await page.evaluate(() => document.documentElement.scrollWidth);
          if (w > 390) sideways.push(`${where}: ${w}px wide`);
        } else {
          // Structure and names do not change with the theme: dark checks colours only.
          for (const v of await axeViolations(page, theme === "dark")) {
            violations.push({ page: t.name, theme, ...v });
          }
          if (theme === "light") {
            const k = await keyboardWalk(page);
            controls += k.count;
            if (k.missed.length) {
              keyboard.push(`${where}: never reached ${k.missed.join(", ")}`);
            }
            if (k.unringed.length) {
              keyboard.push(`${where}: no focus ring on ${k.unringed.join(", ")}`);
            }
          }
        }
        checked++;
        await page.close();
      };
      // Renders run three at a time: each waits mostly on the server and Chromium's renderer,
      // and Playwright keeps focus per page, so keyboard walks do not disturb each other.
      const jobs = targets(slug, me.user.id).flatMap((t) =>
        runs.map(({ theme, vp }) => () => check(t, theme, vp))
      );
      await Promise.all(
        Array.from({ length: 3 }, async () => {
          for (let job = jobs.shift(); job; job = jobs.shift()) await job();
        }),
      );
      console.log(`checked ${checked} page renders, ${controls} controls tabbed through`);
      assertEquals(wrongStatus, [], "every page answers as expected for its viewer");
      assertEquals(violations, [], "no serious or critical axe violation");
      assertEquals(keyboard, [], "every control reached by Tab, each with a focus ring");
      assertEquals(sideways, [], "nothing scrolls sideways at 390 px");
      assertEquals(scriptErrors, [], "no script errors");
    } finally {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
      await app.close();
      await server.close();
    }
  },
});
