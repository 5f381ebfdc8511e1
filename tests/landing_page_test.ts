/**
 * The landing page (/) gives a next step: sign-up and log-in (or the dashboard when signed in),
 * a numbered list of first steps, and a link to the API reference page, which exists.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, dbTest, signUp } from "./harness.ts";

const hrefs = (html: string) => [...html.matchAll(/<a[^>]*href="([^"]+)"/g)].map((m) => m[1]);
/** The links inside the page's content (the top bar left out). */
const contentOf = (html: string) => html.slice(html.indexOf('id="content"'));

dbTest("landing page: next steps, sign-up and log-in, and the API reference", async (app) => {
  const anon = await new Client(app).get("/");
  assertEquals(anon.status, 200);
  const body = contentOf(anon.text);
  const links = hrefs(body);
  for (const want of ["/signup", "/login", "/api-reference"]) {
    assert(links.some((h) => h === want || h.startsWith(`${want}?`)), `links to ${want}: ${links}`);
  }
  const steps = body.match(/<ol[^>]*data-next-steps[^>]*>([\s\S]*?)<\/ol>/);
  assert(steps, "a numbered list of next steps");
  assert((steps[1].match(/<li/g) ?? []).length >= 3, steps[1]);
  assertEquals((await new Client(app).get("/api-reference")).status, 200, "the link works");

  const user = await signUp(app);
  const signedIn = hrefs(contentOf((await user.get("/")).text));
  assert(signedIn.includes("/dashboard"), `${signedIn}`);
  assert(signedIn.includes("/api-reference"), `${signedIn}`);
});
