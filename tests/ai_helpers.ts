// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
/** Shared fixtures of the AI transform tests: an app wired to a fresh fake OpenAI server. */
import { BACKENDS, type Client, createTestApp, type Sanitizers, type TestApp } from "./harness.ts";
import { type FakeHandler, startFakeOpenAI } from "./fakes/openai.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";
import { aiEngineFor } from "../lib/ai/engine.ts";
import { assertEquals } from "./assert.ts";

export type Fake = ReturnType<typeof startFakeOpenAI>;

/** Registers `fn` per backend with a fresh app whose model is a fresh fake OpenAI server. */
export function aiTest(
  name: string,
  fn: (app: TestApp, fake: Fake) => Promise<void>,
  opts: { env?: Record<string, string>; handler?: FakeHandler; noModel?: boolean } & Sanitizers =
    {},
): void {
  for (const backend of BACKENDS) {
    Deno.test({
      name: `${name} [${backend}]`,
      sanitizeOps: opts.sanitizeOps,
      sanitizeResources: opts.sanitizeResources,
      async fn() {
        const fake = startFakeOpenAI(opts.handler);
        const env = opts.noModel ? { ...opts.env } : fake.env(opts.env);
        const app = await createTestApp(backend, { env });
        try {
          await fn(app, fake);
        } finally {
          await aiEngineFor(app.services).runs.flush();
          await app.close();
          await fake.close();
        }
      },
    });
  }
}

export const rulesPath = (slug: string) => `/api/tenants/${slug}/ai-transform/rules`;

/** Creates a rule and activates it; returns its view. */
export async function activeRule(
  c: Client,
  slug: string,
  body: Record<string, unknown>,
): Promise<any> {
  const r = await c.post(rulesPath(slug), body);
  assertEquals(r.status, 201, r.text);
  const a = await c.post(`${rulesPath(slug)}/${r.body.id}/activate`);
  assertEquals(a.status, 200, a.text);
  assertEquals(a.body.status, "active");
  return a.body;
}

/** Runs the in-process runtime exactly as the edge calls it, on the tenant's KV snapshot. */
export async function runtime(
  app: TestApp,
  slug: string,
  profile: string,
  apiPath: string,
  body: unknown,
) {
  const snapshot = await readSnapshot(app.services.kv, slug);
  if (!snapshot) throw new Error(`no snapshot for ${slug}`);
  const r = await aiEngineFor(app.services).runtime({
    tenantId: snapshot.tenantId,
    ai: snapshot.ai,
    profile,
    apiPath,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { ...r, json: safeParse(r.body) };
}

function safeParse(s: string): any {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** Waits for queued run logs, then lists runs through the API. */
export async function runs(c: Client, slug: string, query = ""): Promise<any> {
  const r = await c.get(`/api/tenants/${slug}/ai-transform/runs${query}`);
  assertEquals(r.status, 200, r.text);
  return r.body;
}
