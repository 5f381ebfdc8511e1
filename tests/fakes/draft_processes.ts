/**
 * The draft tenants of tests/fakes/draft_world.ts on N real processes of the program
 * (tests/instances.ts) over one PostgreSQL database and one KV file. The tenants are made
 * through the management API with their provider host names as API origins; the processes
 * reach those hosts on the draft fake over real TLS, through a CONNECT proxy
 * (tests/fakes/connect_proxy.ts; `HTTPS_PROXY`, `DENO_CERT` with the fake's CA). Every
 * preview-link secret is made by the control plane (the first link) and reaches every
 * process in the tenant's snapshot; the test reads it back from the database (sealed under
 * the test encryption key) only to sign expired, out-of-scope and foreign links.
 */
import postgres from "postgres";
import { type DraftCms, startDraftCms } from "./draft_cms.ts";
import { startConnectProxy } from "./connect_proxy.ts";
import { DRAFT_HOSTS, PREVIEW_CANARY } from "./draft_world.ts";
import {
  type Agent,
  type Instance,
  sharedWorld,
  signUp,
  startInstance,
  stop,
} from "../instances.ts";
import { TEST_ENCRYPTION_KEY } from "../harness.ts";
import { decryptSecret } from "../../lib/crypto/mod.ts";
import { previewKey, signPreviewToken } from "../../lib/preview/link_token.ts";
import type { PropertyWorld } from "../drafts_property.ts";

const TLS = new URL("../fixtures/tls/", import.meta.url);
const PUBLIC_TOKEN = "PUBLIC-TOKEN-5e0b";

/**
 * The tenants of draft_world as management API bodies (each kind's default credential
 * placement), plus each one's preview origin.
 */
const TENANTS: Record<string, { body: Record<string, string>; previewOrigin?: string }> = {
  sanity: {
    body: {
      cms: "sanity",
      projectId: "pr0j",
      dataset: "production",
      apiOrigin: "https://pr0j.apicdn.sanity.io",
    },
  },
  storyblok: {
    body: {
      cms: "storyblok",
      apiOrigin: "https://api.storyblok.com/v2/cdn",
    },
  },
  prismic: {
    body: {
      cms: "prismic",
      repository: "acme-repo",
      apiOrigin: "https://acme-repo.cdn.prismic.io/api/v2",
    },
  },
  contentful: {
    body: { cms: "contentful", apiOrigin: "https://cdn.contentful.com" },
    previewOrigin: "https://preview.contentful.com",
  },
  "contentful-preview": {
    body: { cms: "contentful", apiOrigin: "https://preview.contentful.com" },
  },
  "generic-sanity": { body: { cms: "generic", apiOrigin: "https://pr0j.api.sanity.io" } },
};

async function must(
  owner: Agent,
  inst: Instance,
  method: string,
  path: string,
  body: unknown,
  status: number,
) {
  const r = await owner.req(inst, method, path, body);
  if (r.status !== status) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.body;
}

/**
 * Raw HTTP/1.1 to a process with a tenant Host header: the whole answer as a Response. The
 * target is sent as fetch would send it (spaces and quotes percent-encoded by the URL parser).
 */
async function hostRequest(port: number, host: string, path: string, init: RequestInit) {
  const method = init.method ?? "GET";
  const u = new URL(path, `http://${host}`);
  const target = u.pathname + u.search;
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${host}`, "Connection: close"];
  for (const [k, v] of new Headers(init.headers)) lines.push(`${k}: ${v}`);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n"));
  const raw = new Uint8Array(await new Response(conn.readable).arrayBuffer());
  const text = new TextDecoder().decode(raw);
  const at = text.indexOf("\r\n\r\n");
  const [status, ...fields] = text.slice(0, at).split("\r\n");
  const headers = new Headers();
  for (const f of fields) {
    const c = f.indexOf(":");
    headers.append(f.slice(0, c).trim(), f.slice(c + 1).trim());
  }
  let body = text.slice(at + 4);
  if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) body = unchunk(body);
  headers.delete("transfer-encoding");
  const code = Number(status.split(" ")[1]);
  return new Response(method === "HEAD" || code === 304 ? null : body, { status: code, headers });
}

function unchunk(s: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const eol = s.indexOf("\r\n", at);
    const size = parseInt(s.slice(at, eol), 16);
    if (!(size > 0)) return out;
    out += s.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/**
 * The world on `instances` real processes; its `instances` list (for figures) and
 * `[Symbol.asyncDispose]` stops them and drops the database.
 */
// Long: one set-up in order: fakes, processes, tenants through the API, secrets read back
export async function draftProcesses(base: string, instances: number) {
  const shared = await sharedWorld(base, "cachely_drafts");
  const cms: DraftCms = startDraftCms({
    cert: await Deno.readTextFile(new URL("cms.pem", TLS)),
    key: await Deno.readTextFile(new URL("cms.key", TLS)),
  });
  const proxy = startConnectProxy(DRAFT_HOSTS, cms.port);
  const env = {
    ...shared.env,
    HTTPS_PROXY: proxy.url,
    NO_PROXY: "127.0.0.1,localhost",
    DENO_CERT: new URL("cms_ca.pem", TLS).pathname,
    EDGE_UPSTREAM_CLIENT: "fetch",
    EDGE_SNAPSHOT_TTL_MS: "200",
    EDGE_SNAPSHOT_MAX_STALE_MS: "1000",
    EDGE_PROJECTOR_INTERVAL_MS: "500",
  };
  const procs: Instance[] = [];
  const db = postgres(shared.url.toString(), { max: 1, onnotice: () => {} });
  const dispose = async () => {
    await Promise.all(procs.map(stop));
    await db.end();
    proxy.close();
    await cms.close();
    await shared.close();
  };
  try {
    procs.push(await startInstance(env)); // the first runs the migrations
    procs.push(
      ...await Promise.all(Array.from({ length: instances - 1 }, () => startInstance(env))),
    );
    const owner = await signUp(procs[0]);
    // six tenants: the pro plan (as an admin override would set it)
    await db`INSERT INTO billing_accounts (user_id, plan_code, admin_override)
      VALUES (${owner.id}, 'pro', true)
      ON CONFLICT (user_id) DO UPDATE SET plan_code = 'pro', admin_override = true`;
    for (const [slug, t] of Object.entries(TENANTS)) {
      await must(owner, procs[0], "POST", "/api/tenants", {
        slug,
        ...t.body,
        token: PUBLIC_TOKEN,
      }, 201);
      const base = `/api/tenants/${slug}`;
      await must(owner, procs[0], "PUT", `${base}/preview-credential`, {
        token: PREVIEW_CANARY,
        ...(t.previewOrigin ? { apiOrigin: t.previewOrigin } : {}),
      }, 200);
      await must(owner, procs[0], "POST", `${base}/preview-links`, { path: "/~api/" }, 201);
    }
    const rows = await db<{ id: number; slug: string; enc: string }[]>`
      SELECT id, slug, settings->>'previewSecretEnc' AS enc FROM tenants`;
    const keys = new Map<string, { id: number; key: CryptoKey }>();
    for (const r of rows) {
      const secret = await decryptSecret(TEST_ENCRYPTION_KEY, r.enc);
      keys.set(r.slug, { id: r.id, key: await previewKey(secret) });
    }
    const slugs = Object.keys(TENANTS);
    const world: PropertyWorld & { procs: Instance[]; tunnels: Map<string, number> } = {
      cms,
      slugs,
      instances,
      procs,
      tunnels: proxy.tunnels,
      async link(slug, o = {}) {
        const { id, key } = keys.get(slug)!;
        return await signPreviewToken(o.secret ? await previewKey(o.secret) : key, {
          t: id,
          s: o.scope ?? "/~api/",
          e: Math.floor(Date.now() / 1000) + (o.ttlSeconds ?? 7200),
        });
      },
      request: (slug, path, init, i) =>
        hostRequest(procs[i].port, `${slug}.localhost:8000`, path, init),
      advance: () => {},
      entries: null,
    };
    await everyProcessKnows(world);
    return Object.assign(world, { [Symbol.asyncDispose]: dispose });
  } catch (e) {
    await dispose();
    throw e;
  }
}

/** Waits until every process answers a valid link on every tenant (snapshots arrived). */
async function everyProcessKnows(w: PropertyWorld): Promise<void> {
  for (let i = 0; i < w.instances; i++) {
    for (const slug of w.slugs) {
      const path = slug === "prismic"
        ? `/~api/documents/search?ref=${w.cms.masterRef()}&`
        : "/~api/stories?";
      for (let tries = 0;; tries++) {
        const res = await w.request(
          slug,
          `${path}?cachely-preview-token=${await w.link(slug)}`,
          {},
          i,
        );
        await res.body?.cancel();
        if (res.status === 200) break;
        if (tries > 100) throw new Error(`instance ${i}, ${slug}: ${res.status}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
}
