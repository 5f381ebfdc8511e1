/** The CLI's JSON API client: bearer token, the server's `{ error }` shape turned into ApiFailure. */
import { CliError } from "./args.ts";
import type { Credentials } from "./credentials.ts";

/** The server answered with an error; `message` is the server's own. */
export class ApiFailure extends CliError {
  override name = "ApiFailure";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export type RequestOptions = {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
};

export class ApiClient {
  constructor(readonly base: string, private readonly token?: string) {}

  async request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const { res, text } = await this.raw(method, path, opts);
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = undefined;
    }
    if (!res.ok) throw failureOf(res, body, text);
    if (body === undefined) {
      throw new CliError(`Unexpected answer from ${this.base}: not JSON (HTTP ${res.status})`);
    }
    return body as T;
  }

  async raw(method: string, path: string, opts: RequestOptions = {}) {
    const url = new URL(this.base + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const headers = new Headers(opts.headers);
    headers.set("accept", "application/json");
    if (this.token) headers.set("authorization", `Bearer ${this.token}`);
    if (opts.body !== undefined) headers.set("content-type", "application/json");
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
    } catch (e) {
      throw new CliError(
        `Cannot reach ${this.base}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    return { res, text: await res.text() };
  }

  get<T = unknown>(path: string, query?: RequestOptions["query"]) {
    return this.request<T>("GET", path, { query });
  }
  post<T = unknown>(path: string, body?: unknown) {
    return this.request<T>("POST", path, { body });
  }
  put<T = unknown>(path: string, body?: unknown) {
    return this.request<T>("PUT", path, { body });
  }
  delete<T = unknown>(path: string, body?: unknown) {
    return this.request<T>("DELETE", path, { body });
  }
}

function failureOf(res: Response, body: unknown, text: string): ApiFailure {
  const err = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } })
    ?.error;
  if (err && typeof err.message === "string") {
    return new ApiFailure(res.status, String(err.code ?? "error"), err.message, err.details);
  }
  const snippet = text.trim().slice(0, 200);
  return new ApiFailure(
    res.status,
    "http_error",
    `HTTP ${res.status} ${res.statusText}${snippet ? `: ${snippet}` : ""}`,
  );
}

export function clientFor(creds: Credentials): ApiClient {
  return new ApiClient(creds.url, creds.token);
}

/** A path segment from user input, encoded. */
export const seg = (s: string) => encodeURIComponent(s);
