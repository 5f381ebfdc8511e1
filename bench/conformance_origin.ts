/**
 * The scripted origin of the RFC 9111 conformance run (bench/conformance.ts): a test's
 * request list is PUT under a fresh id, then each request the cache forwards for that id is
 * answered from its entry (status, headers with dates relative to now, body) and recorded,
 * so the client can compare what the origin saw with what the cache answered. Our own
 * implementation of the protocol the public suite's server speaks.
 */

/** One step of a suite test: what is sent, what the origin answers, what is expected. */
export type Step = Record<string, unknown> & {
  request_headers?: [string, string | number][];
  response_headers?: [string, string | number, boolean?][];
  response_status?: [number, string];
  response_body?: string | null;
  expected_type?: string;
  setup?: boolean;
  setup_tests?: string[];
  magic_ims?: boolean;
  rfc850date?: string[];
};

/** What the origin saw for one forwarded request. */
export type Seen = {
  request_num: number | null;
  request_method: string;
  request_headers: Record<string, string>;
  response_headers: [string, string][];
};

const DATE_HEADERS = new Set([
  "date",
  "expires",
  "last-modified",
  "if-modified-since",
  "if-unmodified-since",
]);
const NO_BODY = new Set([204, 304]);
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** An HTTP date `deltaSecs` from `nowMs` (RFC 850 form when asked). */
function httpDate(nowMs: number, deltaSecs: number, rfc850 = false): string {
  const d = new Date(nowMs + deltaSecs * 1000);
  if (!rfc850) return d.toUTCString();
  const [, dd, mon, yyyy, time] = d.toUTCString().split(" ");
  return `${DAYS[d.getUTCDay()]}, ${dd}-${mon}-${yyyy.slice(2)} ${time} GMT`;
}

/** A header of a step with a numeric date turned into a date relative to `nowMs`. */
export function dated(name: string, value: string | number, nowMs: number, step: Step): string {
  const lower = name.toLowerCase();
  if (DATE_HEADERS.has(lower) && typeof value === "number") {
    return httpDate(nowMs, value, step.rfc850date?.includes(lower) ?? false);
  }
  return String(value);
}

/** The origin: a Deno server on `port`, keeping configs and what it saw per test id. */
export function startSuiteOrigin(port: number) {
  const configs = new Map<string, Step[]>();
  const seen = new Map<string, Seen[]>();
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const [, kind, id] = url.pathname.split("/");
    if (kind === "config" && req.method === "PUT") {
      configs.set(id, await req.json());
      return new Response(null, { status: 201 });
    }
    if (kind === "state") {
      const s = seen.get(id);
      return s ? Response.json(s) : new Response("", { status: 404 });
    }
    if (kind !== "test") return new Response("not found", { status: 404 });
    await req.body?.cancel();
    return answer(id, url, req, configs.get(id), seen);
  });
  return { url: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

function lastHeader(step: Step | undefined, name: string): string | undefined {
  const h = step?.response_headers?.find((x) => x[0].toLowerCase() === name);
  return h === undefined ? undefined : String(h[1]);
}

/** Long: one forwarded request answered from the test's steps and recorded. */
function answer(
  id: string,
  url: URL,
  req: Request,
  steps: Step[] | undefined,
  seen: Map<string, Seen[]>,
): Response {
  if (!steps) return new Response(`no config for ${id}`, { status: 409 });
  const state = seen.get(id) ?? [];
  const serverNum = state.length + 1;
  const clientNum = parseInt(req.headers.get("req-num") ?? "");
  const num = Number.isNaN(clientNum) ? serverNum : clientNum;
  const step = steps[num - 1];
  if (!step) return new Response(`no step ${num}`, { status: 409 });
  const now = Date.now();
  let status = step.response_status?.[0] ?? 200;
  if (step.expected_type?.endsWith("validated")) {
    const prev = steps[num - 2];
    // The origin saw the dates it sent itself; compare them as sent (recorded below).
    const prevSeen = state[state.length - 1]?.response_headers ?? [];
    const sent = (n: string) => prevSeen.find((h) => h[0].toLowerCase() === n)?.[1];
    const lm = sent("last-modified") ?? lastHeader(prev, "last-modified");
    const etag = sent("etag") ?? lastHeader(prev, "etag");
    const ims = req.headers.get("if-modified-since");
    const inm = req.headers.get("if-none-match");
    status = (lm && ims === lm) || (etag && inm === etag) ? 304 : 999;
  }
  const headers = new Headers({
    "server-base-url": url.pathname,
    "server-request-count": String(serverNum),
    "client-request-count": String(clientNum),
    "server-now": String(now),
  });
  const saved = new Map<string, string>();
  for (const h of step.response_headers ?? []) {
    let value = dated(h[0], h[1], now, step);
    if (step.magic_locations && /^(?:content-)?location$/i.test(h[0])) {
      value = value ? `${url.pathname}/${value}` : url.pathname;
    }
    headers.append(h[0], value);
    if (h.length < 3 || h[2] === true) saved.set(h[0], headers.get(h[0]) ?? value);
  }
  if (!headers.has("content-type")) headers.set("content-type", "text/plain");
  if (status === 999) headers.set("x-304-not-generated", "1");
  const reqHeaders: Record<string, string> = {};
  req.headers.forEach((v, k) => reqHeaders[k] = v);
  state.push({
    request_num: Number.isNaN(clientNum) ? null : clientNum,
    request_method: req.method,
    request_headers: reqHeaders,
    response_headers: [...saved],
  });
  seen.set(id, state);
  headers.set("request-numbers", state.map((s) => s.request_num).join(" "));
  const body = NO_BODY.has(status) || req.method === "HEAD" ? null : (step.response_body || id);
  return new Response(body, { status: status === 999 ? 599 : status, headers });
}
