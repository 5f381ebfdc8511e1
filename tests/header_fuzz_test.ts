/**
 * Control bytes everywhere, against the real program (`deno run -A main.ts`, PGlite): a header
 * value holding one ended the process in Deno 2.9's HTTP/1 writer (docs/operations.md "A header
 * value that ends the process"), so only a real process shows it. Every byte 0x00–0x1F and 0x7F,
 * raw where the protocol allows and percent-encoded, goes into the path, the query, `next=`, the
 * Host header, every form field of every page (the page table's GET routes, rendered, their
 * forms read back) and every field of every API route (the OpenAPI document: path, query, body),
 * and into every response header of a fake origin on the API, asset, slice (Range) and site
 * paths, again after a restart (the disk tier). Each request must get an HTTP answer, none a 500,
 * and the process must stay up.
 */
// deno-lint-ignore-file no-explicit-any -- the OpenAPI document is read loosely
import { assert, assertEquals } from "./assert.ts";
import { type Instance, startInstance, stop } from "./instances.ts";
import { startControlOrigin } from "./fakes/control_origin.ts";
import { pageRoutes } from "../routes/pages/mod.tsx";
import { pageGroups } from "../routes/pages/groups.tsx";

const BYTES = [...Array(32).keys(), 0x7f];
const hex = (b: number) => b.toString(16).padStart(2, "0").toUpperCase();
const chr = (b: number) => String.fromCharCode(b);
const enc = new TextEncoder();
const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const ADMIN = "fuzz-admin@example.com";
const PASSWORD = "correct horse battery";

/** What went wrong: requests without an HTTP answer, and 500s. */
type Findings = { noAnswer: string[]; internal: string[]; sent: number };

/** Runs the jobs, `n` at a time. */
async function inParallel(jobs: (() => Promise<void>)[], n = 6): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]();
  };
  await Promise.all(Array.from({ length: n }, worker));
}

/** A raw HTTP/1.1 request (bytes as given, Connection: close): the answer's status, 0 for none. */
async function rawStatus(port: number, request: Uint8Array): Promise<number> {
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
  } catch {
    return 0; // nobody listens any more
  }
  try {
    await conn.write(request);
    let text = "";
    const buf = new Uint8Array(4096);
    while (!text.includes("\r\n")) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
}

function rawGet(target: string, host: string, extra = ""): Uint8Array {
  return latin1(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`);
}

class Session {
  cookie = "";
  constructor(readonly inst: Instance, readonly found: Findings) {}
  get origin() {
    return `http://127.0.0.1:${this.inst.port}`;
  }
  /** One request; records a missing answer or a 500. Returns the status (0: none). */
  async send(
    method: string,
    path: string,
    body?: { type: string; data: string | Uint8Array },
  ): Promise<number> {
    this.found.sent++;
    const what = `${method} ${JSON.stringify(path)} ${
      body ? JSON.stringify(new TextDecoder().decode(enc.encode(String(body.data)))) : ""
    }`;
    try {
      const res = await fetch(`${this.origin}${path}`, {
        method,
        redirect: "manual",
        headers: {
          origin: this.origin,
          ...(this.cookie ? { cookie: this.cookie } : {}),
          ...(body ? { "content-type": body.type } : {}),
        },
        body: body?.data as BodyInit | undefined,
      });
      await res.body?.cancel();
      if (res.status === 500) this.found.internal.push(what);
      return res.status;
    } catch (e) {
      this.found.noAnswer.push(`${what}: ${e}`);
      return 0;
    }
  }
  async raw(label: string, request: Uint8Array): Promise<number> {
    this.found.sent++;
    const status = await rawStatus(this.inst.port, request);
    if (status === 0) this.found.noAnswer.push(label);
    if (status === 500) this.found.internal.push(label);
    return status;
  }
}

async function signUpAdmin(s: Session): Promise<string> {
  const res = await fetch(`${s.origin}/api/auth/signup`, {
    method: "POST",
    headers: { origin: s.origin, "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN, password: PASSWORD }),
  });
  const body = await res.json();
  assertEquals(res.status, 201, JSON.stringify(body));
  s.cookie = res.headers.get("set-cookie")!.split(";")[0];
  return body.user.id;
}

async function createTenant(s: Session, slug: string, origin: string): Promise<void> {
  const res = await fetch(`${s.origin}/api/tenants`, {
    method: "POST",
    headers: { origin: s.origin, cookie: s.cookie, "content-type": "application/json" },
    body: JSON.stringify({
      slug,
      cms: "generic",
      apiOrigin: origin,
      originUrl: origin,
      websiteOrigin: origin,
      siteProxy: true,
    }),
  });
  assertEquals(res.status, 201, await res.text());
}

/** Every control byte in every response header of the origin, on each edge path, twice. */
function edgeJobs(s: Session, slug: string): (() => Promise<void>)[] {
  const tenant = `${slug}.localhost:8000`;
  const preview = `${slug}.preview.localhost:8000`;
  return BYTES.flatMap((b) => {
    const h = `/h/${hex(b)}`;
    const asks: [string, Uint8Array][] = [
      ["api", rawGet(`/~api${h}/item`, tenant)],
      ["asset", rawGet(`${h}/a.jpg`, tenant)],
      ["slice", rawGet(`${h}/v.mp4`, tenant, "Range: bytes=0-9\r\n")],
      ["site", rawGet(`/site${h}/page`, preview)],
    ];
    return asks.map(([kind, req]) => async () => {
      for (const round of ["miss", "hit"]) await s.raw(`${kind} 0x${hex(b)} ${round}`, req);
    });
  });
}

/** Path, query, next= and Host, raw and percent-encoded, on the management app and the edge. */
function requestLineJobs(s: Session, slug: string): (() => Promise<void>)[] {
  const tenant = `${slug}.localhost:8000`;
  return BYTES.flatMap((b) => {
    const p = `%${hex(b)}`;
    const c = chr(b);
    const app = `localhost:${s.inst.port}`;
    return [
      async () => {
        for (
          const path of [
            `/dashboard/${p}/`,
            `/account/${p}/`,
            `/dashboard/a${p}b`,
            `/${p}`,
            `/api/${p}`,
            `/login?next=/${p}/x`,
            `/login?next=${p}`,
            `/signup?next=/a${p}b`,
            `/dashboard?q=a${p}b`,
            `/api/tenants?q=a${p}b`,
          ]
        ) await s.send("GET", path);
        await s.send("POST", "/verify-email/dismiss", {
          type: "application/x-www-form-urlencoded",
          data: `next=/${p}/x`,
        });
        await s.send("POST", "/verify-email/dismiss", {
          type: "application/x-www-form-urlencoded",
          data: latin1(`next=/${c}/x`),
        });
      },
      async () => {
        const label = `raw 0x${hex(b)}`;
        await s.raw(`${label} path`, rawGet(`/dashboard/${c}/`, app));
        await s.raw(`${label} query`, rawGet(`/login?next=/${c}/x`, app));
        await s.raw(`${label} Host`, rawGet("/", `a${c}b`));
        await s.raw(`${label} Host %`, rawGet("/", `a${p}b`));
        await s.raw(`${label} edge path`, rawGet(`/~api/${c}/`, tenant));
        await s.raw(`${label} edge path %`, rawGet(`/~api/a${p}b/`, tenant));
        await s.raw(`${label} edge query`, rawGet(`/~api/x?q=a${c}b`, tenant));
        await s.raw(`${label} edge query %`, rawGet(`/~api/x?q=a${p}b&next=/${p}`, tenant));
        await s.raw(`${label} edge asset %`, rawGet(`/a${p}b.jpg`, tenant));
      },
    ];
  });
}

type Form = { action: string; fields: [string, string, boolean][] };

/** The post forms of every GET page of the page table, as the admin sees them. */
async function pageForms(s: Session, slug: string, userId: string): Promise<Form[]> {
  const none = () => new Response();
  const paths = new Set(
    [...pageRoutes(none).routes, ...pageGroups(none).routes]
      .filter((r) => r.method === "GET" && !r.path.includes("*") && !r.path.includes("oauth"))
      .map((r) => r.path.replace(":slug", slug).replace(":id", userId)),
  );
  const forms = new Map<string, Form>();
  for (const path of paths) {
    const res = await fetch(`${s.origin}${path}`, { headers: { cookie: s.cookie } });
    const html = await res.text();
    for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
      if (!/method="post"/i.test(m[1])) continue;
      const action = (/action="([^"]*)"/.exec(m[1])?.[1] ?? path).replaceAll("&amp;", "&");
      const fields: [string, string, boolean][] = [];
      for (const f of m[2].matchAll(/<(input|select|textarea)\b([^>]*)>/g)) {
        const name = /\bname="([^"]+)"/.exec(f[2])?.[1];
        if (!name) continue;
        const value = (/\bvalue="([^"]*)"/.exec(f[2])?.[1] ?? "").replaceAll("&amp;", "&");
        fields.push([name, value, /type="hidden"/.test(f[2])]);
      }
      const key = `${action} ${fields.map((f) => f[0] + (f[2] ? f[1] : "")).join(",")}`;
      forms.set(key, { action, fields });
    }
  }
  return [...forms.values()];
}

/** Session-ending or destructive forms and routes go last, so the rest runs logged in. */
const ending = (s: string) => /logout|sessions|delete|DELETE|password|account"?$/.test(s);

/** Each form, each byte: visible fields and redirect targets hold it, hidden ones kept. */
function formJobs(s: Session, forms: Form[]): (() => Promise<void>)[] {
  const ordered = [...forms].sort((a, b) =>
    Number(ending(JSON.stringify(a))) - Number(ending(JSON.stringify(b)))
  );
  return ordered.map((form) => async () => {
    for (const b of BYTES) {
      for (const encoded of [true, false]) {
        // the value holds the byte; or the text `%XX`, which a redirect target may decode
        const v = encoded ? encodeURIComponent(`/a%${hex(b)}b`) : `/a${chr(b)}b`;
        const body = form.fields.map(([k, value, hidden]) => {
          const fuzzed = !hidden || /^(_back|_next|next)$/.test(k);
          return `${encodeURIComponent(k)}=${fuzzed ? v : encodeURIComponent(value)}`;
        }).join("&");
        await s.send("POST", form.action, {
          type: "application/x-www-form-urlencoded",
          data: latin1(body),
        });
      }
    }
  });
}

/**
 * Each API operation: every byte in its path parameters, its query and every body field. One
 * value carries all the bytes but NUL (any one of them reaching a header ends the process, so
 * together they find a sink as each would alone), NUL goes alone (str() refuses it before
 * anything else looks), and a third value carries them as `%XX` text, which a sink may decode.
 */
function apiJobs(s: Session, doc: any): (() => Promise<void>)[] {
  const ops: [string, string, any][] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (["get", "post", "put", "patch", "delete"].includes(method)) {
        ops.push([method.toUpperCase(), path, op]);
      }
    }
  }
  ops.sort((a, b) => Number(ending(`${a[0]} ${a[1]}`)) - Number(ending(`${b[0]} ${b[1]}`)));
  const values = [
    `/a${BYTES.filter((b) => b !== 0).map(chr).join("")}b`,
    "/a\0b",
    `/a${BYTES.map((b) => `%${hex(b)}`).join("")}b`,
  ];
  return ops.map(([method, path, op]) => async () => {
    const query = (op.parameters ?? []).filter((p: any) => p.in === "query").map((p: any) =>
      p.name
    );
    const schema = op.requestBody?.content?.["application/json"]?.schema;
    const props = Object.keys(schema?.properties ?? {});
    for (const v of values) {
      const url = path.replace(/\{[^}]+\}/g, encodeURIComponent(v)) +
        (query.length ? `?${new URLSearchParams(query.map((q: string) => [q, v]))}` : "");
      const data = JSON.stringify(Object.fromEntries(props.map((p) => [p, v])));
      await s.send(method, url, schema ? { type: "application/json", data } : undefined);
    }
  });
}

/** A POST that declares 100 body bytes, sends 5 and closes. */
async function abortedPost(port: number, path: string): Promise<void> {
  const type = path.startsWith("/api/") ? "application/json" : "application/x-www-form-urlencoded";
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(enc.encode(
    `POST ${path} HTTP/1.1\r\nHost: localhost:${port}\r\nOrigin: http://localhost:${port}\r\n` +
      `Content-Type: ${type}\r\nContent-Length: 100\r\n\r\n{"a":`,
  ));
  await new Promise((r) => setTimeout(r, 100));
  conn.close();
}

function alive(inst: Instance): Promise<boolean> {
  return Promise.race([
    inst.exited.then(() => false),
    new Promise<boolean>((r) => setTimeout(() => r(true), 100)),
  ]);
}

function report(found: Findings, inst: Instance): string {
  const tail = inst.out.filter((l) => /panicked|error/.test(l)).slice(-5).join("\n");
  return `${found.noAnswer.length} without an answer (of ${found.sent}):\n` +
    found.noAnswer.slice(0, 10).join("\n") + `\n${found.internal.length} answered 500:\n` +
    found.internal.slice(0, 10).join("\n") + `\n${tail}`;
}

Deno.test({
  name: "every control byte in every request part and every origin header: answered, process up",
  sanitizeOps: false, // the instance's pipes and exit status settle after its stop()
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const origin = startControlOrigin();
    const env = {
      DATA_DIR: dir,
      PROXY_DOMAIN: "localhost:8000",
      ALLOW_PRIVATE_UPSTREAMS: "true",
      ADMIN_EMAILS: ADMIN,
      ADMIN_EMAILS_REQUIRE_VERIFIED: "false",
      QUOTAS: "off", // two tenants on one account
      USAGE_FLUSH_INTERVAL_MS: "3600000",
    };
    let inst = await startInstance(env);
    const found: Findings = { noAnswer: [], internal: [], sent: 0 };
    try {
      const s = new Session(inst, found);
      const userId = await signUpAdmin(s);
      const slug = "fuzz-edge";
      await createTenant(s, slug, origin.url);
      await createTenant(s, "fuzz-pages", origin.url);
      const t0 = performance.now();
      const phases: string[] = [];
      const phase = async (name: string, jobs: (() => Promise<void>)[]) => {
        const [t, n] = [performance.now(), found.sent];
        await inParallel(jobs);
        phases.push(`${name} ${found.sent - n} in ${Math.round(performance.now() - t)} ms`);
        assert(await alive(inst), `the process ended (${name}):\n${report(found, inst)}`);
      };
      await phase("edge", edgeJobs(s, slug));
      assert(origin.requests > 0, "the edge reached the origin");
      await phase("request line", requestLineJobs(s, slug));
      const doc = await (await fetch(`${s.origin}/api/openapi.json`)).json();
      const forms = await pageForms(s, "fuzz-pages", userId);
      assert(forms.length >= 10, `forms found: ${forms.length}`);
      await phase("api", apiJobs(s, doc));
      await phase("forms", formJobs(s, forms));
      const ms = Math.round(performance.now() - t0);
      console.log(`header fuzz: ${found.sent} requests in ${ms} ms: ${phases.join(", ")}`);
      assert(await alive(inst), `the process ended:\n${report(found, inst)}`);
      assertEquals([found.noAnswer.length, found.internal.length], [0, 0], report(found, inst));

      // A Host that is no host is the client's mistake: 400, nothing logged as an error.
      for (const host of ["a b", "[::1", "a%0Bb", "exa mple.localhost:8000"]) {
        assertEquals(await s.raw(`Host ${host}`, rawGet("/", host)), 400, host);
      }
      // A body cut off by its client is no error of ours either.
      for (const path of ["/api/auth/login", "/login", "/forms", "/verify-email/dismiss"]) {
        await abortedPost(inst.port, path);
      }
      await new Promise((r) => setTimeout(r, 300));
      const errors = inst.out.filter((l) => l.includes('"level":"error"'));
      assertEquals(errors, [], "nothing logged at error level");

      // A restart: what the disk tier holds is read back and replayed, the origin not asked.
      await stop(inst);
      inst = await startInstance(env, { untilReady: false });
      const again = new Session(inst, found);
      const before = origin.requests;
      await inParallel(edgeJobs(again, slug));
      assert(await alive(inst), `the process ended after the restart:\n${report(found, inst)}`);
      assertEquals([found.noAnswer.length, found.internal.length], [0, 0], report(found, inst));
      console.log(`after the restart: ${origin.requests - before} origin requests`);
    } finally {
      await stop(inst);
      origin.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
