/**
 * The management app (API and dashboard): the host router (lib/http/host_router.ts) sends
 * tenant hosts to the edge and every other host here.
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "./lib/http/env.ts";
import type { Services } from "./lib/services.ts";
import type { Instance } from "./lib/instance.ts";
import { loadApi } from "./routes/api/lazy.ts";
import { metricsRefusal, metricsText } from "./lib/metrics/prometheus.ts";
import { pageRoutes } from "./routes/pages/mod.tsx";
import type { OtherHosts } from "./lib/http/host_router.ts";
import { nosniff } from "./lib/http/security_headers.ts";
import { compressAnswers } from "./lib/http/page_compression.ts";

export function createManagementApp(s: Services, instance: Instance): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", nosniff);
  app.use("*", compressAnswers);
  app.use("*", withServices(s, instance));
  const api = lazyApi(s, instance);
  app.get("/metrics", async (c) => {
    const refusal = metricsRefusal(s, c.req.header("authorization") ?? null);
    if (refusal === 404) return c.json({ error: { code: "not_found", message: "Not found" } }, 404);
    if (refusal === 401) {
      return c.json({ error: { code: "unauthorized", message: "Invalid metrics token" } }, 401);
    }
    return c.body(await metricsText(s, instance), 200, {
      "content-type": "text/plain; version=0.0.4; charset=utf-8",
      "cache-control": "no-store",
    });
  });
  app.all("/api", api);
  app.all("/api/*", api);
  // The form bridge (routes/pages/forms.tsx) calls the API in-process through this app.
  app.route("/", pageRoutes((req, env) => app.fetch(req, env)));
  return app;
}

function withServices(s: Services, instance: Instance): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("services", s);
    c.set("instance", instance);
    c.set("clientIp", (c.env as { clientIp?: string } | undefined)?.clientIp ?? "unknown");
    await next();
  };
}

/**
 * /api and below: the API app (routes/api/mod.ts) is imported and built on the first API
 * request, then answers every one with the same request and env (so the same context).
 */
function lazyApi(s: Services, instance: Instance): (c: Context<AppEnv>) => Promise<Response> {
  let built: Promise<Hono<AppEnv>> | undefined;
  const build = async () => {
    const { apiRoutes } = await loadApi();
    const api = new Hono<AppEnv>();
    api.use("*", withServices(s, instance));
    api.route("/api", apiRoutes());
    return api;
  };
  return async (c) => {
    built ??= build();
    return await (await built).fetch(c.req.raw, c.env);
  };
}

/** The management app as the host router's handler for hosts that are not the edge's. */
export function managementHandler(s: Services, instance: Instance): OtherHosts {
  const app = createManagementApp(s, instance);
  return async (req, clientIp) => await app.fetch(req, { clientIp });
}
