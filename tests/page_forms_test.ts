/**
 * Page forms that answer their own post (no JavaScript: log-in, sign-up, forgot and reset
 * password) mirror an API route and parse their fields with that route's declared body schema
 * through the API's validate path (routes/pages/form_post.ts formInput): for the same input the
 * page refuses exactly when the API does, with the API's message. Dashboard forms need no such
 * check: the form bridge (routes/pages/forms.tsx) calls the API route itself.
 */
import { assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, dbTest } from "./harness.ts";

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const LONG_TOKEN = "x".repeat(201);
const PASSWORD = "a brand new passphrase";

/** The page's form post and the API call it mirrors, with the same input. */
const CASES: Array<{ page: string; fields: Record<string, string>; api: string; body: object }> = [
  { email: "a@b" },
  { email: "nope" },
  { email: `${"x".repeat(250)}@example.com` },
].map((fields) => ({
  page: "/forgot-password",
  fields,
  api: "/api/auth/forgot-password",
  body: fields,
}));
CASES.push(
  ...[{ email: "a@b", password: "pw" }, { email: "ok@example.com", password: "x".repeat(201) }]
    .flatMap((fields) =>
      ["login", "signup"].map((p) => ({
        page: `/${p}`,
        fields,
        api: `/api/auth/${p}`,
        body: fields,
      }))
    ),
  {
    page: `/reset-password?token=${LONG_TOKEN}`,
    fields: { password: PASSWORD },
    api: "/api/auth/reset-password",
    body: { token: LONG_TOKEN, password: PASSWORD },
  },
  {
    page: "/reset-password?token=cly_pwr_unknown",
    fields: { password: "" },
    api: "/api/auth/reset-password",
    body: { token: "cly_pwr_unknown", password: "" },
  },
);

/** The page's text with the entities its renderer writes decoded. */
const text = (html: string) =>
  html.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'").replaceAll("&amp;", "&");

dbTest(
  "a page form refuses what its API route's declared body refuses, saying the same",
  async (app) => {
    for (const k of CASES) {
      const api = await new Client(app).post(k.api, k.body);
      assertEquals(api.status, 400, `${k.api} ${JSON.stringify(k.body)}`);
      const page = await new Client(app).post(
        k.page,
        new URLSearchParams(k.fields).toString(),
        FORM,
      );
      const what = `${k.page} ${JSON.stringify(k.fields)}`;
      assertEquals(page.status, 400, what);
      assertStringIncludes(text(page.text), api.body.error.message, what);
    }
  },
);
