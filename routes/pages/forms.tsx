/**
 * The form bridge: `POST /forms` takes a dashboard form (urlencoded or multipart), calls
 * the JSON API endpoint it names in-process with the caller's own credentials, and answers
 * a browser without JavaScript with a redirect back (the outcome shown once on the next
 * page) or, for enhanced forms (`Accept: application/json`), with the outcome as JSON.
 * The bridge adds no power: the API checks session, CSRF origin, role and input as usual.
 */
import { type Context, Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { badRequest } from "../../lib/errors.ts";
import {
  type BridgeMeta,
  FormFieldError,
  formToJson,
  outcomeFrom,
} from "../../lib/dashboard/form_body.ts";
import { flashOnNextPage, type FormOutcome } from "../../lib/dashboard/flash.ts";
import { safeNext } from "../../lib/http/next.ts";
import { BRIDGE_FORM_MAX_BYTES, readForm, requireSameOriginForm } from "./form_post.ts";
import { page, pageUser } from "./render.tsx";
import { Layout } from "../../components/Layout.tsx";

/** Calls the management app in-process (app.ts hands in its own fetch). */
export type Dispatch = (req: Request, env: unknown) => Promise<Response> | Response;

const METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const API_PATH = /^\/api\/[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*$/;

/**
 * Sends the form's JSON to the API in-process, as the browser would (its cookie, authorization,
 * host and user agent), and passes a Set-Cookie of the answer on (log-in, sign-up).
 */
async function callApi(
  c: Context<AppEnv>,
  dispatch: Dispatch,
  api: string,
  method: string,
  body: Record<string, unknown>,
): Promise<{ status: number; answer: unknown }> {
  const headers = new Headers({ accept: "application/json", origin: new URL(c.req.url).origin });
  for (const h of ["cookie", "authorization", "host", "user-agent"]) {
    const v = c.req.header(h);
    if (v) headers.set(h, v);
  }
  const hasBody = method !== "DELETE" || Object.keys(body).length > 0;
  if (hasBody) headers.set("content-type", "application/json");
  const res = await dispatch(
    new Request(new URL(api, c.req.url), {
      method,
      headers,
      body: hasBody ? JSON.stringify(body) : undefined,
    }),
    c.env,
  );
  const status = res.status;
  // Log-in and sign-up set the session cookie on the API's answer: pass it on.
  for (const cookie of res.headers.getSetCookie()) {
    c.header("set-cookie", cookie, { append: true });
  }
  const text = await res.text();
  let answer: unknown = null;
  try {
    answer = text ? JSON.parse(text) : null;
  } catch { /* not JSON: the outcome names the status only */ }
  return { status, answer };
}

export function formBridge(dispatch: Dispatch): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/forms", async (c) => {
    requireSameOriginForm(c); // also without a session (log-in CSRF through the bridge)
    const form = await readForm(c, BRIDGE_FORM_MAX_BYTES);
    const entries = [...form.entries()].filter((e): e is [string, string] =>
      typeof e[1] === "string"
    );
    const get = (k: string) => form.get(k)?.toString() || undefined;
    const api = get("_api") ?? "";
    const method = (get("_method") ?? "POST").toUpperCase();
    if (!API_PATH.test(api) || api.includes("..") || !METHODS.has(method)) {
      throw badRequest("Invalid _api: the form names no API endpoint");
    }
    const publicUrl = c.get("services").config.publicUrl;
    const back = safeNext(get("_back"), publicUrl);
    const wantsJson = (c.req.header("accept") ?? "").includes("application/json");

    if (get("_confirm") && !get("_confirmed") && !wantsJson) {
      return confirmPage(c, get("_confirm")!, entries, back);
    }

    let body: Record<string, unknown>;
    let outcome: FormOutcome;
    let answer: unknown = null;
    try {
      body = formToJson(entries);
    } catch (e) {
      if (!(e instanceof FormFieldError)) throw e;
      body = {};
      outcome = {
        ok: false,
        message: `Invalid ${e.field}: ${e.message}`,
        fields: { [e.field]: e.message },
      };
      return respond(400);
    }
    const { status, answer: got } = await callApi(c, dispatch, api, method, body);
    answer = got;
    const meta: BridgeMeta = {
      done: get("_done"),
      reveal: get("_reveal"),
      revealLabel: get("_reveal_label"),
      revealPrefix: get("_reveal_prefix"),
      expect: get("_expect"),
      fail: get("_fail"),
    };
    outcome = outcomeFrom(status, answer, meta, c.get("services").config.publicUrl);
    return respond(status);

    async function respond(code: number) {
      const next = outcome.ok && get("_next")
        ? safeNext(
          get("_next")!.replace(/\{([\w.]+)\}/g, (_, k: string) => {
            const v = (answer as Record<string, unknown> | null)?.[k];
            return encodeURIComponent(String(v ?? ""));
          }),
          publicUrl,
        )
        : undefined;
      if (wantsJson) {
        return c.json({ status: code, outcome, next, data: outcome.ok ? answer : null });
      }
      if (code === 401) return c.redirect(`/login?next=${encodeURIComponent(back)}`, 303);
      await flashOnNextPage(c, outcome);
      return c.redirect(next ?? back, 303);
    }
  });
  return app;
}

/** Without JavaScript a destructive form asks here first and posts the same fields again. */
function confirmPage(
  c: Context<AppEnv>,
  question: string,
  entries: [string, string][],
  back: string,
) {
  return page(
    c,
    <Layout title="Please confirm" user={pageUser(c)}>
      <h1>Please confirm</h1>
      <p>{question}</p>
      <form method="post" action="/forms" class="row">
        {entries.map(([k, v], i) => <input key={i} type="hidden" name={k} value={v} />)}
        <input type="hidden" name="_confirmed" value="1" />
        <button type="submit" class="danger">Yes, continue</button>
        <a class="button secondary" href={back}>Cancel</a>
      </form>
    </Layout>,
  );
}
