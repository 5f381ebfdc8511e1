/** The sections of a tenant's dashboard page. Reads are server-rendered; writes go through islands. */
import { Island } from "./Island.tsx";
import type { Role } from "../lib/tenants/roles.ts";
import { atLeast } from "../lib/tenants/roles.ts";
import type { tenantView } from "../lib/tenants/service.ts";
import type { tenantOverview } from "../lib/dashboard/overview.ts";
import { AUTH_MODES } from "../lib/providers/mod.ts";

/** Read-only lists loaded in the browser from the JSON API (their areas own the shapes). */
const LIST_SECTIONS = [
  {
    title: "AI transform rules",
    path: "ai-transform/rules",
    itemsKey: "rules",
    empty: "No rules.",
    columns: [
      ["id", "Id"],
      ["presetId", "Preset"],
      ["fieldSelector", "Fields"],
      ["profile", "Profile"],
      ["routePattern", "Route"],
      ["status", "Status"],
    ],
  },
  {
    title: "Experiments",
    path: "ai-experiments",
    itemsKey: "experiments",
    empty: "No experiments.",
    columns: [["id", "Id"], ["name", "Name"], ["routePattern", "Route"], ["status", "Status"]],
  },
  {
    title: "Bandwidth, last 30 days",
    path: "bandwidth-daily",
    itemsKey: "points",
    empty: "No traffic yet.",
    columns: [["day", "Day"], ["requests", "Requests"], ["bytes", "Bytes"]],
  },
  {
    title: "Request logs (sampled)",
    path: "logs?limit=20",
    itemsKey: "entries",
    empty: "No request logs yet.",
    columns: [
      ["ts", "When"],
      ["method", "Method"],
      ["path", "Path"],
      ["status", "Status"],
      ["cache", "Cache"],
      ["durationMs", "ms"],
    ],
  },
  {
    title: "Audit history",
    path: "audit-events?limit=20",
    itemsKey: "events",
    empty: "No audit events.",
    columns: [["createdAt", "When"], ["action", "Action"], ["target", "Target"], [
      "actorUserId",
      "Actor",
    ]],
  },
] as const;

type Props = {
  tenant: ReturnType<typeof tenantView>["value"];
  role: Role;
  overview: Awaited<ReturnType<typeof tenantOverview>>;
};

function formatBytes(n: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
}

export function TenantSections({ tenant: t, role, overview }: Props) {
  const api = `/api/tenants/${t.slug}`;
  const editor = atLeast(role, "editor");
  const admin = atLeast(role, "admin");
  return (
    <>
      <h1>{t.slug}</h1>
      <section class="card">
        <h2>Overview</h2>
        <dl class="grid">
          <dt>Proxy host</dt>
          <dd>
            <code>{t.proxyBase}</code>
          </dd>
          <dt>API proxy</dt>
          <dd>
            <code>{t.proxyBase}/~api/…</code> → <code>{t.apiOrigin ?? "not configured"}</code>
          </dd>
          <dt>Preview host</dt>
          <dd>
            <code>{t.previewBase}</code>
            {t.websiteOrigin
              ? (
                <>
                  → <code>{t.websiteOrigin}</code>
                </>
              )
              : " (no website origin)"}
          </dd>
          <dt>CMS</dt>
          <dd>{t.cms}{t.cloudName ? ` (${t.cloudName})` : ""}</dd>
          <dt>Auth</dt>
          <dd>{t.apiAuthMode}, token {t.hasToken ? "stored" : "not set"}</dd>
          <dt>Cache TTL</dt>
          <dd>{t.cacheTTL} s</dd>
          <dt>Cache versions</dt>
          <dd>
            api {t.apiCacheVersion}, assets {t.assetCacheVersion}, html {t.htmlCacheVersion}
          </dd>
          <dt>Last 30 days</dt>
          <dd>
            {overview.usage30d.requests} requests, {formatBytes(overview.usage30d.bytes)},{" "}
            {(overview.usage30d.hitRatio * 100).toFixed(1)}% cache hits
          </dd>
          <dt>Your role</dt>
          <dd>{role}</dd>
        </dl>
      </section>

      {editor && (
        <section class="card">
          <h2>Cache</h2>
          {(["api", "assets", "html", "all"] as const).map((type) => (
            <Island
              key={type}
              name="ActionButton"
              props={{
                method: "POST",
                url: `${api}/refresh-cache`,
                body: { type },
                label: `Refresh ${type}`,
              }}
            />
          ))}
          <Island
            name="ActionButton"
            props={{ method: "POST", url: `${api}/edge-config`, label: "Rebuild edge config" }}
          />
        </section>
      )}

      {admin && (
        <section class="card">
          <h2>API proxy</h2>
          <Island
            name="JsonForm"
            props={{
              method: "PUT",
              url: `${api}/api-config`,
              submitLabel: "Save API config",
              fields: [
                { name: "apiOrigin", label: "API origin", type: "url", value: t.apiOrigin ?? "" },
                {
                  name: "apiAuthMode",
                  label: "Auth mode",
                  type: "select",
                  options: [...AUTH_MODES],
                  value: t.apiAuthMode,
                },
                {
                  name: "apiAuthHeader",
                  label: "Header / parameter name",
                  value: t.apiAuthHeader ?? "",
                },
                {
                  name: "cacheTTL",
                  label: "Cache TTL (s)",
                  type: "number",
                  value: String(t.cacheTTL),
                },
              ],
            }}
          />
          <Island
            name="JsonForm"
            props={{
              method: "PUT",
              url: `${api}/api-token`,
              submitLabel: "Replace token",
              fields: [{
                name: "token",
                label: "Upstream token (write-only)",
                type: "password",
                required: true,
              }],
            }}
          />
        </section>
      )}

      <section class="card">
        <h2>Implementation checks</h2>
        <p class="muted">Is your website served through Cachely, and does its code use it?</p>
        <Island
          name="ActionButton"
          props={{
            method: "POST",
            url: `${api}/cachely-check`,
            label: "Probe the website surface",
            revealKey: "headline",
          }}
        />
        <Island
          name="JsonForm"
          props={{
            method: "POST",
            url: `${api}/website-implementation-check`,
            submitLabel: "Check a website",
            revealKey: ["analysis.verdict", "message"],
            fields: [
              {
                name: "url",
                label: "Website URL",
                type: "url",
                required: true,
                placeholder: "https://www.example.com/",
              },
            ],
          }}
        />
      </section>

      <section class="card">
        <h2>Custom domains</h2>
        {overview.domains.length === 0 ? <p class="muted">No custom domains.</p> : (
          <table>
            <thead>
              <tr>
                <th>Hostname</th>
                <th>Status</th>
                <th>Verification</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {overview.domains.map((d) => (
                <tr key={d.hostname}>
                  <td>{d.hostname}</td>
                  <td>{d.status}{d.failureReason ? ` (${d.failureReason})` : ""}</td>
                  <td>
                    <code>_cachely.{d.hostname} TXT cachely-verify={d.token}</code>
                  </td>
                  <td>
                    {admin && (
                      <Island
                        name="ActionButton"
                        props={{
                          method: "POST",
                          url: `${api}/domains/verify`,
                          body: { hostname: d.hostname },
                          label: "Verify",
                        }}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {admin && (
          <Island
            name="JsonForm"
            props={{
              method: "POST",
              url: `${api}/domains`,
              submitLabel: "Add domain",
              fields: [{
                name: "hostname",
                label: "Hostname",
                required: true,
                placeholder: "cdn.example.com",
              }],
            }}
          />
        )}
      </section>

      <section class="card">
        <h2>Members</h2>
        <table>
          <thead>
            <tr>
              <th>Email</th>
              <th>Role</th>
            </tr>
          </thead>
          <tbody>
            {overview.members.map((m) => (
              <tr key={m.userId}>
                <td>{m.email}</td>
                <td>{m.role}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {admin && (
          <Island
            name="JsonForm"
            props={{
              method: "POST",
              url: `${api}/members/invite`,
              submitLabel: "Invite",
              revealKey: "token",
              fields: [
                { name: "email", label: "Email", type: "email", required: true },
                {
                  name: "role",
                  label: "Role",
                  type: "select",
                  options: role === "owner"
                    ? ["viewer", "editor", "admin", "owner"]
                    : ["viewer", "editor", "admin"],
                },
              ],
            }}
          />
        )}
      </section>

      {editor && (
        <section class="card">
          <h2>Cache-refresh webhooks</h2>
          <Island
            name="ApiTable"
            props={{
              url: `${api}/cache-refresh-webhooks`,
              itemsKey: "webhooks",
              empty: "No cache-refresh webhooks.",
              columns: [
                { key: "id", label: "Id" },
                { key: "provider", label: "Provider" },
                { key: "refreshAssets", label: "Assets" },
                { key: "lastTriggeredAt", label: "Last triggered" },
                { key: "lastStatus", label: "Status" },
              ],
            }}
          />
          {admin && (
            <Island
              name="JsonForm"
              props={{
                method: "POST",
                url: `${api}/cache-refresh-webhooks`,
                submitLabel: "Create webhook",
                revealKey: "url",
                fields: [
                  {
                    name: "provider",
                    label: "Provider",
                    type: "select",
                    options: ["contentful", "sanity", "storyblok", "generic"],
                  },
                  { name: "refreshAssets", label: "Also refresh assets", type: "checkbox" },
                ],
              }}
            />
          )}
        </section>
      )}

      {LIST_SECTIONS.map((l) => (
        <section class="card" key={l.title}>
          <h2>{l.title}</h2>
          <Island
            name="ApiTable"
            props={{
              url: `${api}/${l.path}`,
              itemsKey: l.itemsKey,
              empty: l.empty,
              columns: l.columns.map(([key, label]) => ({ key, label })),
            }}
          />
        </section>
      ))}
    </>
  );
}
