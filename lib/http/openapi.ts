/**
 * The OpenAPI 3.1 document, generated from the route declarations (lib/http/route.ts):
 * paths, methods, access (as security requirements and a description), request bodies
 * and query parameters from the zod schemas (zod's own JSON Schema output, draft
 * 2020-12 as OpenAPI 3.1 uses), and every status a route can answer, errors in the one
 * error shape (docs/decisions.md "Errors"). Served at GET /api/openapi.json.
 */
import { z } from "zod";
import type { Access, DeclaredRoute } from "./route.ts";
import { describeAccess } from "./access.ts";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { ERROR_CODES } from "../errors.ts";

type Json = Record<string, unknown>;

const ERROR_SCHEMA: Json = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: {
          type: "string",
          enum: Object.keys(ERROR_CODES),
          description: "Stable machine-readable code, one of a closed list:\n" +
            Object.entries(ERROR_CODES).map(([code, meaning]) => `- \`${code}\`: ${meaning}`)
              .join("\n"),
        },
        message: { type: "string", description: "Capitalised, the detail after a colon" },
        details: { type: "object", description: "e.g. fields[] naming the bad fields" },
      },
    },
  },
};

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No content",
  400: "Invalid input (the message names the field)",
  401: "Missing or invalid credentials",
  403: "Insufficient role, or refused",
  404: "Not found (also for non-members of a tenant)",
  409: "Conflict",
  413: "Body too large",
  429: "Rate or token limit (Retry-After)",
  500: "Internal failure",
  502: "Upstream error",
  503: "Database unavailable",
};

/** The statuses a route answers: its success, those its access and inputs imply, its own. */
export function statusesOf(r: DeclaredRoute): number[] {
  const out = new Set<number>([r.ok ?? 200]);
  if (r.body || r.query || r.path.includes(":")) out.add(400);
  for (const s of accessStatuses(r.access)) out.add(s);
  for (const s of r.errors ?? []) out.add(s);
  out.add(500);
  return [...out].sort((a, b) => a - b);
}

function accessStatuses(a: Access): number[] {
  switch (a.kind) {
    case "session":
      return [401];
    case "tenant":
      return [401, 403, 404];
    case "masterAdmin":
      return [401, 403];
    case "machineKey":
      return [401, 403];
    case "webhookSecret":
      return a.carrier === "path" ? [404] : a.carrier === "query" ? [401, 403, 404] : [400];
    case "public":
      return [];
  }
}

function security(a: Access): Json[] {
  switch (a.kind) {
    case "session":
    case "tenant":
    case "masterAdmin":
      return [{ sessionCookie: [] }, { bearerToken: [] }];
    case "machineKey":
      return [{ [a.key === "ingest" ? "ingestKey" : "aiTransformKey"]: [] }];
    default:
      return [];
  }
}

function jsonSchema(schema: z.ZodType): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return rest as Json;
}

function operation(r: DeclaredRoute): Json {
  const params: Json[] = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (r.query) {
    const q = jsonSchema(r.query) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      params.push({ name, in: "query", required: q.required?.includes(name) ?? false, schema });
    }
  }
  const responses: Json = {};
  for (const status of statusesOf(r)) {
    const description = STATUS_TEXT[status] ?? "See SPEC";
    if (status >= 400) {
      responses[status] = {
        description,
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      };
    } else if (status === 204) {
      responses[status] = { description };
    } else {
      responses[status] = {
        description,
        content: {
          "application/json": { schema: r.response ? jsonSchema(r.response) : { type: "object" } },
        },
      };
    }
  }
  return {
    summary: r.summary,
    description: `Access: ${describeAccess(r.access)}.`,
    tags: [r.path.split("/")[1] ?? "api"],
    "x-access": r.access,
    security: security(r.access),
    ...(params.length ? { parameters: params } : {}),
    ...(r.body
      ? {
        requestBody: {
          required: !r.bodyOptional,
          content: { "application/json": { schema: jsonSchema(r.body) } },
        },
      }
      : {}),
    responses,
  };
}

/** `/tenants/:slug` -> `/api/tenants/{slug}` (Hono pattern to OpenAPI path template). */
export function openApiPath(path: string): string {
  return "/api" + path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");
}

export function openApiDocument(routes: DeclaredRoute[], serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const r of routes) {
    const p = openApiPath(r.path);
    paths[p] = { ...paths[p], [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Cachely management API",
      version: "1",
      description: "Generated from the route declarations. Errors: { error: { code, message, " +
        "details? } }. Unknown paths answer 404 and known paths with another method 405.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: SESSION_COOKIE },
        bearerToken: { type: "http", scheme: "bearer", description: "Personal access token" },
        aiTransformKey: { type: "apiKey", in: "header", name: "X-AI-Transform-Key" },
        ingestKey: { type: "apiKey", in: "header", name: "X-Ingest-Key" },
      },
    },
  };
}
