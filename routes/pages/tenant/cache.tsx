/**
 * Cache: current versions, purge per type (confirmed) or by URL/prefix/tag, "why isn't this
 * URL cached?" (routes/pages/tenant/cache_explain.tsx), edge-config rebuild, publish webhook.
 */
import type { ComponentChildren } from "preact";
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm, Checkbox, Field, Hidden, Select } from "../../../components/ApiForm.tsx";
import { Refusal, Stat } from "../../../components/ui.tsx";
import { REFRESH_TYPES } from "../../../lib/cache/versions.ts";
import { MAX_PURGE_ENTRIES, PURGES_PER_MINUTE } from "../../../lib/cache/purge.ts";
import { whyNotCached } from "./cache_explain.tsx";

/** `name` is the API's body field; `what` how the page says it (URLs, not "urls"). */
const PURGE_TARGETS = [
  {
    name: "urls",
    what: "URLs",
    by: "URL",
    label: "URLs or paths",
    placeholder: "/~api/entries/42\nhttps://\u2026/hero.jpg",
  },
  {
    name: "prefixes",
    what: "prefixes",
    by: "prefix",
    label: "Path prefixes",
    placeholder: "/~api/entries/",
  },
  { name: "tags", what: "tags", by: "tag", label: "Cache tags", placeholder: "post-42" },
];

/** The purge-by-type buttons: "Purge API", not "Purge api". */
const TYPE_LABEL: Record<(typeof REFRESH_TYPES)[number], string> = {
  api: "API",
  assets: "assets",
  html: "HTML",
  all: "all",
};

const WHAT: Record<(typeof REFRESH_TYPES)[number], string> = {
  api: "API responses",
  assets: "assets",
  html: "website pages",
  all: "everything",
};

type Tenant = Parameters<TenantAreaPage>[0];

/** A form that PUTs tenant settings, for an admin; `readOnly` for anyone else. */
function settingsForm(
  t: Tenant,
  label: string,
  done: string,
  fields: ComponentChildren,
  readOnly: ComponentChildren,
) {
  if (!t.can("admin")) return readOnly;
  return (
    <ApiForm api={t.api} method="PUT" submit="Save" busy={`Saving\u2026`} done={done} label={label}>
      {fields}
    </ApiForm>
  );
}

/** Purge by type (a version bump) and the edge-config rebuild. */
function PurgeByType({ t }: { t: Tenant }) {
  return (
    <section class="card">
      <h2>Purge</h2>
      <p class="muted">
        A purge bumps the version counter, so every cached copy of that type is fetched anew.
      </p>
      {t.can("editor")
        ? (
          <div class="actions">
            {REFRESH_TYPES.map((type) => (
              <ApiForm
                key={type}
                api={`${t.api}/refresh-cache`}
                submit={`Purge ${TYPE_LABEL[type]}`}
                busy={`Purging\u2026`}
                confirm={`Purge cached ${WHAT[type]}? The next requests go to the origin.`}
                done="Purged: versions now api {versions.apiCacheVersion}, assets {versions.assetCacheVersion}, html {versions.htmlCacheVersion}"
                layout="inline"
                secondary
                label={`Purge ${TYPE_LABEL[type]}`}
              >
                <Hidden name="type" value={type} />
              </ApiForm>
            ))}
            <ApiForm
              api={`${t.api}/edge-config`}
              submit="Rebuild edge config"
              busy={`Rebuilding\u2026`}
              done="Edge config rebuilt"
              layout="inline"
              secondary
              label="Rebuild edge config"
            />
          </div>
        )
        : <Refusal role={t.role} need="editor" what="purge the cache" />}
    </section>
  );
}

/** Purge by URL, prefix or tag. */
function PurgeTargets({ t }: { t: Tenant }) {
  return (
    <section class="card" data-testid="purge-targets">
      <h2>Purge what you fixed</h2>
      <p class="muted">
        Drops the cached copies a URL, a path prefix or a tag names, on every instance within
        seconds, and nothing else. One entry a line, at most{" "}
        {MAX_PURGE_ENTRIES}. A URL or path without a query purges every query of that path. Tags are
        your origin's <code>Cache-Tag</code> values or this project's own{" "}
        <code>cachely-t{`\u2026`}</code> tags. At most {PURGES_PER_MINUTE}{" "}
        purges a minute per project.
      </p>
      {t.can("editor")
        ? PURGE_TARGETS.map((f) => (
          <ApiForm
            key={f.name}
            api={`${t.api}/purge`}
            submit={`Purge ${f.what}`}
            busy={`Purging\u2026`}
            done={`Purged ${f.what}: {purged.${f.name}}`}
            label={`Purge by ${f.by}`}
          >
            <Field
              name={`${f.name}:list`}
              label={f.label}
              type="textarea"
              required
              placeholder={f.placeholder}
            />
          </ApiForm>
        ))
        : <Refusal role={t.role} need="editor" what="purge cached URLs" />}
    </section>
  );
}

/** Cache mode, stale-while-revalidate and the Set-Cookie choice. */
function CacheSettings({ t }: { t: Tenant }) {
  const v = t.view;
  return (
    <section class="card" data-testid="cache-settings">
      <h2>Cache settings</h2>
      <p class="muted">
        <strong>Fixed</strong>: every answer is kept for the TTL (the asset TTL for assets), until a
        purge. <strong>Origin</strong>: assets and website pages follow the origin's{" "}
        <code>Cache-Control</code>, <code>Expires</code> and <code>Vary</code>{" "}
        (RFC 9111); API responses always keep the fixed TTL. In both modes an expired copy with an
        {" "}
        <code>ETag</code> or <code>Last-Modified</code> is revalidated with a conditional request.
      </p>
      <p class="muted" data-testid="set-cookie-risk">
        Answers that set a cookie are not cached. Caching them anyway suits origins that set
        tracking cookies on every page, but the cached page is then served to every visitor: never
        turn it on for pages that depend on the visitor's session (carts, accounts, CSRF forms).
      </p>
      {settingsForm(
        t,
        "Cache settings",
        "Cache settings saved: {value.cacheMode} mode",
        <>
          <Select
            name="cacheMode"
            label="Cache mode"
            options={[
              { value: "fixed", label: "Fixed TTL" },
              { value: "origin", label: "Follow the origin's headers (assets, pages)" },
            ]}
            value={v.cacheMode}
          />
          <Field
            name="staleWhileRevalidate:number"
            label="Stale-while-revalidate (seconds)"
            type="number"
            min={0}
            max={86400}
            value={v.staleWhileRevalidate}
            hint="An expired copy is served at once while one refresh runs; 0 turns it off. Fixed mode: at most the TTL. Origin mode: only where the origin allows stale answers, unless the box below is ticked"
          />
          <Checkbox
            name="ignoreSetCookie"
            label="Cache answers that set a cookie (the cookie is still dropped)"
            checked={v.ignoreSetCookie}
          />
          <Checkbox
            name="staleWhenOriginSilent"
            label="Origin mode: serve stale copies even where the origin did not allow it"
            checked={v.staleWhenOriginSilent}
          />
          <Field
            name="locales:list"
            label="Website locales (Accept-Language)"
            value={v.locales.join(", ")}
            placeholder="en, de, fr"
            hint="Language tags of your pages, the default first: each visitor's Accept-Language is matched to one of them (RFC 4647 lookup, by q-value) before it keys the cache and reaches your site, so a page has at most one cached copy per locale. Empty: passed on as sent"
          />
        </>,
        <p>
          Cache mode {v.cacheMode}; stale-while-revalidate {v.staleWhileRevalidate}{" "}
          s{v.cacheMode === "origin" && !v.staleWhenOriginSilent
            ? " (only where the origin allows stale answers)"
            : ""}; answers that set a cookie {v.ignoreSetCookie ? "cached" : "not cached"};{" "}
          website locales{" "}
          {v.locales.length ? v.locales.join(", ") : "not set (Accept-Language passed on)"}.
        </p>,
      )}
    </section>
  );
}

/** CDN offload: what it sends, what it never offloads. */
function CdnOffload({ t }: { t: Tenant }) {
  const v = t.view;
  return (
    <section class="card">
      <h2>CDN offload</h2>
      <p class="muted">
        When on, shareable API responses, assets (images, files, video) and website pages carry{" "}
        <code>CDN-Cache-Control</code> with the cache TTL (the asset TTL for assets) and{" "}
        <code>Cache-Tag</code>, so a CDN in front of Cachely (Deno Deploy's cache, Cloudflare,
        Fastly, nginx) answers repeat requests itself, and every purge here purges the CDN too. In
        origin cache mode, assets and pages carry only{" "}
        <code>Cache-Tag</code>: the CDN follows the origin's <code>Cache-Control</code>.
      </p>
      <p class="muted" data-testid="cdn-usage-note">
        Usage then counts only the requests that reach Cachely, not the ones the CDN answers; bot
        blocking and quota pauses also apply only to requests that reach Cachely.
      </p>
      <p class="muted" data-testid="cdn-never">
        Never offloaded: experiment routes, preview-bypass requests, responses the upstream sent
        with a cookie (unless cached anyway above) or marked{" "}
        <code>private</code>/<code>no-store</code>, range (206) answers, errors and refusals (bots,
        content types, quota), and stale copies served while the upstream is down.
      </p>
      {settingsForm(
        t,
        "CDN offload",
        "CDN offload {value.cdnOffload}",
        <Checkbox name="cdnOffload" label="Offload hits to a CDN" checked={v.cdnOffload} />,
        <p>CDN offload is {v.cdnOffload ? "on" : "off"}.</p>,
      )}
    </section>
  );
}

/** The publish webhook URL: show (editor) and rotate (admin) its secret. */
function PublishWebhook({ t }: { t: Tenant }) {
  return (
    <section class="card">
      <h2>Publish webhook</h2>
      <p>
        Point your CMS's publish hook at{" "}
        <code>POST {t.s.config.publicUrl}{t.api}/webhook?secret=&lt;secret&gt;</code>{" "}
        to purge website pages (HTML) on publish.
      </p>
      <div class="actions">
        {t.can("editor") && (
          <ApiForm
            api={`${t.api}/webhook-secret`}
            submit="Show secret"
            busy={`Loading\u2026`}
            done="Publish webhook secret"
            reveal={{
              key: "secret",
              label: "Publish webhook URL",
              prefix: `{origin}${t.api}/webhook?secret=`,
            }}
            layout="inline"
            secondary
            label="Show publish secret"
          />
        )}
        {t.can("admin") && (
          <ApiForm
            api={`${t.api}/webhook-secret`}
            method="PUT"
            submit="Rotate secret"
            busy={`Rotating\u2026`}
            confirm="Rotate the publish secret? The old URL stops working at once."
            done="Secret rotated; update your CMS"
            reveal={{
              key: "secret",
              label: "New publish webhook URL",
              prefix: `{origin}${t.api}/webhook?secret=`,
            }}
            layout="inline"
            danger
            label="Rotate publish secret"
          />
        )}
      </div>
    </section>
  );
}

export const cachePage: TenantAreaPage = async (t) => {
  const v = t.view;
  const why = await whyNotCached(t);
  return (
    <>
      <div class="cards">
        <Stat label="API cache version" value={v.apiCacheVersion} />
        <Stat label="Asset cache version" value={v.assetCacheVersion} />
        <Stat label="HTML cache version" value={v.htmlCacheVersion} />
        <Stat label="API cache TTL" value={`${v.apiCacheTTL} s`} />
        <Stat label="Cache mode" value={v.cacheMode} />
      </div>
      <PurgeByType t={t} />
      <PurgeTargets t={t} />
      {why}
      <CacheSettings t={t} />
      <CdnOffload t={t} />
      <PublishWebhook t={t} />
    </>
  );
};
