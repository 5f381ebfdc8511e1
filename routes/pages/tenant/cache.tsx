/** Cache: current versions, purge per type (confirmed), edge-config rebuild, publish webhook. */
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm, Checkbox, Hidden } from "../../../components/ApiForm.tsx";
import { Refusal, Stat } from "../../../components/ui.tsx";
import { REFRESH_TYPES } from "../../../lib/cache/versions.ts";

const WHAT: Record<(typeof REFRESH_TYPES)[number], string> = {
  api: "API responses",
  assets: "assets",
  html: "website pages",
  all: "everything",
};

export const cachePage: TenantAreaPage = (t) => {
  const v = t.view;
  return (
    <>
      <div class="cards">
        <Stat label="API cache version" value={v.apiCacheVersion} />
        <Stat label="Asset cache version" value={v.assetCacheVersion} />
        <Stat label="HTML cache version" value={v.htmlCacheVersion} />
        <Stat label="API cache TTL" value={`${v.apiCacheTTL} s`} />
      </div>
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
                  submit={`Purge ${type}`}
                  busy="Purging…"
                  confirm={`Purge cached ${WHAT[type]}? The next requests go to the origin.`}
                  done="Purged: versions now api {versions.apiCacheVersion}, assets {versions.assetCacheVersion}, html {versions.htmlCacheVersion}"
                  layout="inline"
                  secondary
                  label={`Purge ${type}`}
                >
                  <Hidden name="type" value={type} />
                </ApiForm>
              ))}
              <ApiForm
                api={`${t.api}/edge-config`}
                submit="Rebuild edge config"
                busy="Rebuilding…"
                done="Edge config rebuilt"
                layout="inline"
                secondary
                label="Rebuild edge config"
              />
            </div>
          )
          : <Refusal role={t.role} need="editor" what="purge the cache" />}
      </section>
      <section class="card">
        <h2>CDN offload</h2>
        <p class="muted">
          When on, shareable API responses, assets (images, files, video) and website pages carry
          {" "}
          <code>CDN-Cache-Control</code> with the cache TTL (the asset TTL for assets) and{" "}
          <code>Cache-Tag</code>, so a CDN in front of Cachely (Deno Deploy's cache, Cloudflare,
          Fastly, nginx) answers repeat requests itself, and every purge here purges the CDN too.
        </p>
        <p class="muted" data-testid="cdn-usage-note">
          Usage then counts only the requests that reach Cachely, not the ones the CDN answers; bot
          blocking and quota pauses also apply only to requests that reach Cachely.
        </p>
        <p class="muted" data-testid="cdn-never">
          Never offloaded: experiment routes, preview-bypass requests, responses the upstream sent
          with a cookie or marked{" "}
          <code>private</code>/<code>no-store</code>, range (206) answers, errors and refusals
          (bots, content types, quota), and stale copies served while the upstream is down.
        </p>
        {t.can("admin")
          ? (
            <ApiForm
              api={t.api}
              method="PUT"
              submit="Save"
              busy="Saving…"
              done="CDN offload {value.cdnOffload}"
              label="CDN offload"
            >
              <Checkbox name="cdnOffload" label="Offload hits to a CDN" checked={v.cdnOffload} />
            </ApiForm>
          )
          : <p>CDN offload is {v.cdnOffload ? "on" : "off"}.</p>}
      </section>
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
              busy="Loading…"
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
              busy="Rotating…"
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
    </>
  );
};
