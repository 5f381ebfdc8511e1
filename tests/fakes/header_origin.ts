/**
 * A loopback origin whose answers a test scripts header by header (HTTP caching
 * rules). Each answer is named by the last path segment without its extension, so one
 * script serves `/~api/x`, `/image/upload/v1/x.jpg` and a site's `/x` alike. It answers a
 * conditional request itself with 304 when the script's ETag (or Last-Modified) matches,
 * and records every request with the bodies it sent, so a test can tell a revalidation
 * from a refetch.
 */
import { serveOnLoopback } from "../harness.ts";

export type Scripted = {
  status?: number;
  headers?: Record<string, string>;
  /** Default: `"<name> #<n>"` (n: the request number for the name). */
  body?: string | null;
  /** Held this long before answering (a slow origin). */
  delayMs?: number;
  /** Answer If-None-Match / If-Modified-Since with 304 when they match (default true). */
  conditional?: boolean;
};

export type OriginRequest = { name: string; path: string; headers: Headers; status: number };

export type HeaderOrigin = {
  url: string;
  seen: OriginRequest[];
  /** Scripts the answer for `name` (a function gets the request number for the name, from 1). */
  script(name: string, s: Scripted | ((n: number, req: Request) => Scripted)): void;
  /** Requests seen for a name. */
  count(name: string): number;
  /** Requests answered with a whole body (not 304). */
  bodies(name: string): number;
  close(): Promise<void>;
};

const NULL_BODY = new Set([204, 205, 304]);

export function startHeaderOrigin(): HeaderOrigin {
  const scripts = new Map<string, (n: number, req: Request) => Scripted>();
  const seen: OriginRequest[] = [];
  const count = (name: string) => seen.filter((s) => s.name === name).length;
  const server = serveOnLoopback(async (req) => {
    const path = new URL(req.url).pathname;
    const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.\w+$/, "");
    const entry: OriginRequest = { name, path, headers: req.headers, status: 0 };
    seen.push(entry);
    const s: Scripted = (scripts.get(name) ?? (() => ({})))(count(name), req);
    if (s.delayMs) await new Promise((r) => setTimeout(r, s.delayMs));
    const headers = { "content-type": "image/jpeg", ...s.headers };
    let status = s.status ?? 200;
    if (status === 200 && s.conditional !== false && notModified(req, headers)) status = 304;
    entry.status = status;
    const body = NULL_BODY.has(status) ? null : s.body ?? `${name} #${count(name)}`;
    return new Response(body, { status, headers });
  });
  return {
    url: server.url,
    seen,
    script: (name, s) => void scripts.set(name, typeof s === "function" ? s : () => s),
    count,
    bodies: (name) => seen.filter((s) => s.name === name && s.status !== 304).length,
    close: () => server.close(),
  };
}

function notModified(req: Request, headers: Record<string, string>): boolean {
  const inm = req.headers.get("if-none-match");
  if (inm !== null) return headers.etag !== undefined && inm === headers.etag;
  const ims = req.headers.get("if-modified-since");
  return ims !== null && headers["last-modified"] !== undefined &&
    Date.parse(headers["last-modified"]) <= Date.parse(ims);
}
