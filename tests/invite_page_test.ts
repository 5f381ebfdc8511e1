/**
 * The invite page (/invites/accept): every Log-in and Sign-up link on it, and on the pages
 * they lead to, carries the invite back (a next= that safeNext keeps); accepting it lands on
 * the tenant with a notice naming the tenant and the role.
 */
import { assert, assertEquals } from "./assert.ts";
import { APP_ORIGIN, Client, createTenant, dbTest, signUp } from "./harness.ts";
import { safeNext } from "../lib/http/next.ts";

const decode = (s: string) => s.replaceAll("&amp;", "&");

/** The next= of every link to /login or /signup on a page (null for a link without one). */
function authLinks(html: string): Array<{ to: string; next: string | null }> {
  return [...html.matchAll(/<a[^>]*href="(\/(?:login|signup))(\?[^"]*)?"/g)].map((m) => ({
    to: m[1],
    next: new URLSearchParams(decode(m[2] ?? "")).get("next"),
  }));
}

function formFields(html: string, label: string): Record<string, string> {
  const form = html.match(new RegExp(`<form[^>]*aria-label="${label}"[^>]*>([\\s\\S]*?)</form>`));
  assert(form, `a form labelled ${label}`);
  const out: Record<string, string> = {};
  for (const m of form[1].matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
    out[m[1]] = decode(m[2]);
  }
  return out;
}

dbTest("invite page: log-in and sign-up links keep the invite; accepting confirms", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const email = `invited-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const inv = await owner.post(`/api/tenants/${slug}/members/invite`, { email, role: "editor" });
  assertEquals(inv.status, 200, inv.text);
  const here = `/invites/accept?token=${encodeURIComponent(inv.body.token)}`;

  const anon = new Client(app);
  for (
    const path of [
      here,
      `/signup?next=${encodeURIComponent(here)}`,
      `/login?next=${encodeURIComponent(here)}`,
    ]
  ) {
    const links = authLinks((await anon.get(path)).text);
    const kinds = new Set(links.map((l) => l.to));
    assert(
      kinds.has("/login") && kinds.has("/signup"),
      `${path}: links to both, ${JSON.stringify(links)}`,
    );
    for (const l of links) {
      assertEquals(l.next, here, `${path}: ${l.to} carries the invite`);
      assertEquals(safeNext(l.next!, APP_ORIGIN), here);
    }
  }

  const invited = await signUp(app, email);
  const page = await invited.get(here);
  const fields = formFields(page.text, "Accept invite");
  const r = await invited.request("POST", "/forms", new URLSearchParams(fields).toString(), {
    "content-type": "application/x-www-form-urlencoded",
  });
  assertEquals(r.status, 303);
  assertEquals(r.headers.get("location"), `/dashboard/${slug}`);
  const landed = await invited.get(r.headers.get("location")!);
  const notice = landed.text.match(/<div class="notice ok"[^>]*>([\s\S]*?)<\/div>/);
  assert(notice, "a success notice on the tenant page");
  assert(notice[1].includes(slug) && notice[1].includes("editor"), notice[1]);
});
