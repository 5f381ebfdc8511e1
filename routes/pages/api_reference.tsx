/**
 * GET /api-reference: the API reference as a page, rendered from the same OpenAPI
 * document as /api/openapi.json (lib/http/openapi.ts), grouped by URL prefix.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { Layout } from "../../components/Layout.tsx";
import { page, pageUser } from "./render.tsx";
import { openApiDocument } from "../../lib/http/openapi.ts";
import type { DeclaredRoute } from "../../lib/http/route.ts";

type Op = {
  summary: string;
  description: string;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string }>;
  tags: string[];
};

export function apiReferencePages(
  declarations: () => DeclaredRoute[] | Promise<DeclaredRoute[]>,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/api-reference", async (c) => {
    const doc = openApiDocument(await declarations(), c.get("services").config.publicUrl) as {
      paths: Record<string, Record<string, Op>>;
    };
    const groups = new Map<string, [string, string, Op][]>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const tag = op.tags[0];
        groups.set(tag, [...groups.get(tag) ?? [], [method.toUpperCase(), path, op]]);
      }
    }
    return page(
      c,
      <Layout title="API reference" user={pageUser(c)}>
        <h1>API reference</h1>
        <p>
          Generated from the route declarations; machine-readable at{" "}
          <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Every error answers{" "}
          <code>{"{ error: { code, message, details? } }"}</code>.
        </p>
        {[...groups].sort(([a], [b]) => a.localeCompare(b)).map(([tag, ops]) => (
          <section class="card" key={tag}>
            <h2>/api/{tag}</h2>
            {ops.map(([method, path, op]) => (
              <details key={`${method} ${path}`}>
                <summary>
                  <code>{method} {path}</code> {op.summary}
                </summary>
                <p>{op.description}</p>
                <p>
                  Statuses:{" "}
                  {Object.entries(op.responses).map(([s, r]) => (
                    <span key={s} title={r.description}>
                      <code>{s}</code>
                      {" "}
                    </span>
                  ))}
                </p>
                {op.requestBody && (
                  <pre>{JSON.stringify(op.requestBody.content["application/json"].schema, null, 2)}</pre>
                )}
              </details>
            ))}
          </section>
        ))}
      </Layout>,
    );
  });
  return app;
}
