/**
 * The client side of the RFC 9111 conformance run (bench/conformance.ts): sends one suite
 * test's requests through a cache, then checks each answer (from the cache or not, status,
 * headers, body) and what the origin saw (validators, forwarded headers). A failed check of a
 * step marked as setup is a setup failure, not a verdict on the cache. Our own reading of the
 * public suite's test format.
 */
import { dated, type Seen, type Step } from "./conformance_origin.ts";

/** A suite test: steps plus how it counts. */
export type SuiteTest = {
  id: string;
  name?: string;
  kind?: "required" | "optimal" | "check";
  required?: boolean;
  depends_on?: string[];
  browser_only?: boolean;
  requests: Step[];
};

/** true, or the failure: ["Setup" | "Assertion", message]. */
export type Outcome = true | ["Setup" | "Assertion", string];

class Failed extends Error {
  constructor(readonly setup: boolean, message: string) {
    super(message);
  }
}

function check(setup: boolean, ok: unknown, message: string): void {
  if (!ok) throw new Failed(setup, message);
}

const isSetup = (s: Step, member: string) =>
  s.setup === true || (s.setup_tests?.includes(member) ?? false);

const PAUSE_MS = 3000;
const NO_BODY = new Set([204, 304]);

/** Runs one test against `cacheUrl` (the cache) with `originUrl` (the origin's control). */
export async function runSuiteTest(
  test: SuiteTest,
  cacheUrl: string,
  originUrl: string,
): Promise<Outcome> {
  const id = crypto.randomUUID();
  const steps = test.requests.map((s) => ({ ...s }));
  const put = await fetch(`${originUrl}/config/${id}`, {
    method: "PUT",
    body: JSON.stringify(steps),
  });
  await put.body?.cancel();
  if (put.status !== 201) return ["Setup", `config PUT: ${put.status}`];
  const answers: Response[] = [];
  try {
    for (let i = 0; i < steps.length; i++) {
      const res = await send(id, steps[i], i, cacheUrl, answers[i - 1]);
      answers.push(res);
      await checkAnswer(id, steps[i], i + 1, res);
      if ("pause_after" in steps[i]) await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
    const state = await (await fetch(`${originUrl}/state/${id}`)).text();
    checkOrigin(steps, answers, state ? JSON.parse(state) : []);
    return true;
  } catch (e) {
    if (e instanceof Failed) return [e.setup ? "Setup" : "Assertion", e.message];
    return ["Setup", `harness: ${(e as Error).message}`];
  }
}

async function send(id: string, step: Step, idx: number, cacheUrl: string, prev?: Response) {
  const headers: [string, string][] = [["Pragma", "foo"], ["Cache-Control", "nothing-to-see-here"]];
  const prevNow = parseInt(prev?.headers.get("server-now") ?? "");
  for (const [name, value] of step.request_headers ?? []) {
    const isIms = name.toLowerCase() === "if-modified-since";
    headers.push([
      name,
      step.magic_ims && isIms ? dated(name, value, prevNow, step) : String(value),
    ]);
  }
  headers.push(["Test-ID", id], ["Req-Num", String(idx + 1)]);
  const file = typeof step.filename === "string" ? `/${step.filename}` : "";
  const query = typeof step.query_arg === "string" ? `?${step.query_arg}` : "";
  const h = new Headers();
  for (const [k, v] of headers) h.append(k, v);
  const method = typeof step.request_method === "string" ? step.request_method : "GET";
  const body = typeof step.request_body === "string" ? step.request_body : undefined;
  return await fetch(`${cacheUrl}/test/${id}${file}${query}`, {
    method,
    headers: h,
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  });
}

/** Long: the checks on one answer as the client sees it. */
async function checkAnswer(id: string, step: Step, num: number, res: Response) {
  const served = parseInt(res.headers.get("server-request-count") ?? "");
  const numbers = res.headers.get("request-numbers")?.split(" ") ?? [];
  check(true, numbers.length === new Set(numbers).size, "retry");
  const typeSetup = isSetup(step, "expected_type");
  if (step.expected_type === "cached" && !(res.status === 304 && Number.isNaN(served))) {
    check(typeSetup, served < num, `Response ${num} does not come from cache`);
  }
  if (step.expected_type === "not_cached") {
    check(typeSetup, served === num, `Response ${num} comes from cache`);
  }
  if ("expected_status" in step) {
    if (step.expected_status !== null) {
      check(
        isSetup(step, "expected_status"),
        res.status === step.expected_status,
        `Response ${num} status is ${res.status}, not ${step.expected_status}`,
      );
    }
  } else if (step.response_status) {
    const want = step.response_status[0];
    check(true, res.status === want, `Response ${num} status is ${res.status}, not ${want}`);
  } else if (res.headers.has("x-304-not-generated")) {
    check(typeSetup, false, `Request ${num} should have been conditional, but it was not.`);
  } else {
    check(true, res.status === 200, `Response ${num} status is ${res.status}, not 200`);
  }
  const presentSetup = isSetup(step, "expected_response_headers");
  for (const h of (step.expected_response_headers ?? []) as (string | string[])[]) {
    if (typeof h === "string") {
      check(presentSetup, res.headers.has(h), `Response ${num} ${h} header not present.`);
    } else {
      const got = res.headers.get(h[0]);
      check(
        presentSetup,
        got === h[1],
        `Response ${num} header ${h[0]} is "${got}", not "${h[1]}"`,
      );
    }
  }
  const missingSetup = isSetup(step, "expected_response_headers_missing");
  for (const h of (step.expected_response_headers_missing ?? []) as (string | string[])[]) {
    if (typeof h === "string") {
      check(missingSetup, !res.headers.has(h), `Response ${num} includes unexpected header ${h}`);
    }
  }
  const text = await res.text();
  if (step.check_body === false) return;
  if ("expected_response_text" in step) {
    const want = step.expected_response_text;
    if (want !== null) {
      check(isSetup(step, "expected_response_text"), text === want, `Response body is "${text}"`);
    }
  } else if (typeof step.response_body === "string" && step.response_body !== null) {
    check(
      true,
      text === step.response_body,
      `Response body is "${text}", not "${step.response_body}"`,
    );
  } else if (!NO_BODY.has(res.status) && step.request_method !== "HEAD") {
    check(true, text === id, `Response body is "${text}", not "${id}"`);
  }
}

/** Long: what the origin saw, step by step (a cached step reached it not). */
function checkOrigin(steps: Step[], answers: Response[], state: Seen[]) {
  let at = 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const num = i + 1;
    const typeSetup = isSetup(step, "expected_type");
    if (step.expected_type === "cached") continue;
    const seen = state[at++];
    if (step.expected_type === "not_cached") {
      const onServer = seen?.request_num;
      check(
        typeSetup,
        onServer === num,
        `Response ${num} comes from cache (${onServer} on server)`,
      );
    }
    const validator = step.expected_type === "etag_validated"
      ? "if-none-match"
      : step.expected_type === "lm_validated"
      ? "if-modified-since"
      : null;
    if (validator) {
      check(typeSetup, seen !== undefined, `request ${num} wasn't sent to server`);
      check(
        typeSetup,
        validator in seen.request_headers,
        `request ${num} doesn't have ${validator}`,
      );
    }
    const reqSetup = isSetup(step, "expected_request_headers");
    for (const h of (step.expected_request_headers ?? []) as (string | string[])[]) {
      const name = (typeof h === "string" ? h : h[0]).toLowerCase();
      const got = seen?.request_headers[name];
      if (typeof h === "string") {
        check(reqSetup, got !== undefined, `Request ${num} ${h} not present`);
      } else {check(
          reqSetup,
          got === h[1],
          `Request ${num} header ${h[0]} is "${got}", not "${h[1]}"`,
        );}
    }
    const missSetup = isSetup(step, "expected_request_headers_missing");
    for (const h of (step.expected_request_headers_missing ?? []) as (string | string[])[]) {
      const name = (typeof h === "string" ? h : h[0]).toLowerCase();
      const got = seen?.request_headers[name];
      if (typeof h === "string") check(missSetup, got === undefined, `Request ${num} ${h} present`);
      else check(missSetup, got !== h[1], `Request ${num} header ${h[0]} is "${got}"`);
    }
    for (const [name, value] of seen?.response_headers ?? []) {
      if (name.toLowerCase() === "date") continue;
      const got = answers[i].headers.get(name);
      check(true, got === value, `Response ${num} header ${name} is "${got}", not "${value}"`);
    }
  }
}
