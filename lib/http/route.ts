/**
 * Route declarations: every API route states, where it is defined, who may call it
 * (its access) and what it takes and answers (zod schemas). routes/api/mod.ts mounts
 * the declarations (one router per URL prefix, lib/http/mount.ts), runs the one
 * middleware of the declared access kind (lib/http/access.ts) before the handler,
 * and generates the OpenAPI document from them (lib/http/openapi.ts).
 * How to declare a new route: docs/architecture.md "Declaring an API route".
 */
import type { Context, MiddlewareHandler } from "hono";
import type { HandlerResponse } from "hono/types";
import type { z } from "zod";
import type { AppEnv, AuthContext } from "./env.ts";
import type { Role } from "../base/roles.ts";
import type { TokenScope } from "../db/schema/core.ts";
import type { Tenant } from "../tenants/service.ts";

/** Who may call a route (SPEC "Authentication"). */
export type Access =
  | { kind: "public" }
  | { kind: "session" }
  | { kind: "tenant"; role: Role }
  | { kind: "masterAdmin" }
  | { kind: "machineKey"; key: MachineKey }
  | { kind: "webhookSecret"; carrier: "query" | "path" | "signature" };

export type MachineKey = "aiTransform" | "ingest";

/** Each kind keeps its literal type, so a route's handler input knows what its access gives. */
export const access = {
  public: { kind: "public" } as const,
  session: { kind: "session" } as const,
  tenant: (role: Role): { kind: "tenant"; role: Role } => ({ kind: "tenant", role }),
  masterAdmin: { kind: "masterAdmin" } as const,
  machineKey: (key: MachineKey): Access => ({ kind: "machineKey", key }),
  webhookSecret: (carrier: "query" | "path" | "signature"): Access => ({
    kind: "webhookSecret",
    carrier,
  }),
};

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** What a route declares besides its method, path and handler. */
export type RouteSpec = {
  access: Access;
  summary: string;
  /** JSON request body: the mount reads and parses it; the handler gets `input.body`. */
  body?: z.ZodType;
  /**
   * The body may be left out (an empty body parses as `{}`): the same fields can come in the
   * query instead. OpenAPI shows the body as optional.
   */
  bodyOptional?: true;
  /** Largest body read for `body` (default 256 KiB); a function reads it from the services. */
  bodyMaxBytes?: number | ((c: Context<AppEnv>) => number);
  /** Query parameters: the mount parses them; the handler gets `input.query`. */
  query?: z.ZodType;
  /** Success status (default 200; 201 for creations, 204 for preflight). */
  ok?: number;
  /** Success response body (default: a JSON object). */
  response?: z.ZodType;
  /** Error statuses beyond those implied by the access kind and the inputs. */
  errors?: number[];
  /**
   * The personal-access-token scope needed beyond what the method and access imply
   * (lib/auth/token_scopes.ts), e.g. `admin` for minting tokens.
   */
  tokenScope?: TokenScope;
  /** Middleware run before the access check (e.g. open CORS on public routes). */
  before?: MiddlewareHandler<AppEnv>[];
};

/** What the mount hands a handler, typed by its declaration. */
export type RouteInput<S extends RouteSpec> =
  & {
    body: S extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;
    query: S extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;
  }
  & (S["access"] extends { kind: "tenant" } ? { tenant: Tenant; role: Role; auth: AuthContext }
    : S["access"] extends { kind: "session" | "masterAdmin" } ? { auth: AuthContext }
    : unknown);

export type RouteHandler<P extends string, S extends RouteSpec> = (
  c: Context<AppEnv, P>,
  input: RouteInput<S>,
) => HandlerResponse<unknown>;

/** The mount's view of a handler: the input is built from the declaration at run time. */
type AnyHandler = (c: Context<AppEnv>, input: Record<string, unknown>) => HandlerResponse<unknown>;

export type DeclaredRoute = RouteSpec & {
  method: Method;
  /** Full path under /api, in Hono's pattern syntax (`/tenants/:slug/members`). */
  path: string;
  handler: AnyHandler;
};

/**
 * The routes of one API area. `prefix` is prepended to every path, so an area whose
 * routes all share one (e.g. `/auth`) writes the rest only.
 */
export class Routes {
  readonly list: DeclaredRoute[] = [];
  constructor(readonly prefix = "") {}

  get<P extends string, const S extends RouteSpec>(
    path: P,
    spec: S,
    handler: RouteHandler<P, S>,
  ): this {
    return this.#add("GET", path, spec, handler);
  }
  post<P extends string, const S extends RouteSpec>(
    path: P,
    spec: S,
    handler: RouteHandler<P, S>,
  ): this {
    return this.#add("POST", path, spec, handler);
  }
  put<P extends string, const S extends RouteSpec>(
    path: P,
    spec: S,
    handler: RouteHandler<P, S>,
  ): this {
    return this.#add("PUT", path, spec, handler);
  }
  patch<P extends string, const S extends RouteSpec>(
    path: P,
    spec: S,
    handler: RouteHandler<P, S>,
  ): this {
    return this.#add("PATCH", path, spec, handler);
  }
  delete<P extends string, const S extends RouteSpec>(
    path: P,
    spec: S,
    handler: RouteHandler<P, S>,
  ): this {
    return this.#add("DELETE", path, spec, handler);
  }
  options<P extends string, const S extends RouteSpec>(
    path: P,
    spec: S,
    handler: RouteHandler<P, S>,
  ): this {
    return this.#add("OPTIONS", path, spec, handler);
  }

  #add<P extends string, S extends RouteSpec>(
    method: Method,
    path: P,
    spec: S,
    handler: RouteHandler<P, S>,
  ): this {
    const full = (this.prefix + (path === "/" ? "" : path)) || "/";
    this.list.push({ ...spec, method, path: full, handler: handler as unknown as AnyHandler });
    return this;
  }
}
