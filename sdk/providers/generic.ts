/**
 * Generic: any HTTPS origin (S3, R2, GCS, ...) with an optional base path, and an optional
 * origin for video files. Assets only; cache-refresh webhooks carry no event type.
 *
 * @module
 */
import { escapePathLiteral as lit, type SourceRule } from "../rewrite.ts";
import { fileClassOf, NO_ROUTES, originUrl, parseHttpsOrigin, parseOrigin } from "./shared.ts";
import type { DerivedOrigin, FieldSpec, ProviderKindDefinition } from "./types.ts";

function checkOrigin(v: string, opts: { allowHttp?: boolean }): string | null {
  if (opts.allowHttp ? parseOrigin(v) : parseHttpsOrigin(v)) return null;
  return opts.allowHttp
    ? "must be an http:// or https:// origin without query or fragment"
    : "must be an https:// origin without query or fragment";
}

const origin = (text: Omit<FieldSpec, "check">): FieldSpec => ({ ...text, check: checkOrigin });

export const generic: ProviderKindDefinition<"generic"> = {
  kind: "generic",
  label: "Generic HTTPS origin",
  fields: {
    originUrl: origin({
      label: "Origin URL",
      hint: "S3, R2, GCS or any HTTPS origin",
      placeholder: "https://bucket.s3.amazonaws.com",
    }),
    videoOrigin: origin({
      label: "Video origin (optional)",
      hint: "video files are fetched here instead",
      placeholder: "https://media.example.com",
    }),
  },
  required: [],
  sdkRequired: [],
  origins(cfg) {
    const assets: DerivedOrigin[] = [];
    const o = cfg.originUrl ? parseOrigin(cfg.originUrl) : null;
    if (o) assets.push({ role: "origin", url: originUrl(o) });
    const v = cfg.videoOrigin ? parseOrigin(cfg.videoOrigin) : null;
    if (v) assets.push({ role: "videos", url: originUrl(v) });
    return { api: null, assets };
  },
  sources(cfg) {
    const out: SourceRule[] = [];
    for (const raw of [cfg.videoOrigin, cfg.originUrl]) {
      const o = raw ? parseOrigin(raw) : null;
      if (o) {
        out.push({ host: o.host, path: o.base.split("/").slice(1).map(lit).join("/"), clean: "" });
      }
    }
    return out;
  },
  /** Any path on `originUrl`, videos on `videoOrigin` when set (strict: only files). */
  routes(cfg) {
    const o = cfg.originUrl ? parseOrigin(cfg.originUrl) : null;
    const v = cfg.videoOrigin ? parseOrigin(cfg.videoOrigin) : null;
    if (!o && !v) return NO_ROUTES;
    return {
      route(path, strict) {
        if (path === "/") return null;
        const cls = fileClassOf(path);
        if (strict && cls === "other") return null;
        const use = v && (cls === "video" || !o) ? v : o!;
        return {
          origin: originUrl(use),
          path,
          query: "keep",
          role: use === v ? "videos" : "origin",
        };
      },
    };
  },
  samplePath: "/images/hero.jpg",
  upstream: { assetHosts: [], defaultApiOrigin: null, defaultAuthMode: "bearer" },
  assetsOnly: true,
  needsAnOrigin: true,
  webhook: { eventType: () => null },
  demo: {
    provider: { cms: "generic", originUrl: "https://static.example.com" },
    apiOrigin: "https://api.example.com",
    path: "/articles?limit=2",
    body: {
      data: [
        { id: 1, title: "Any HTTPS JSON API", image: "https://static.example.com/img/one.jpg" },
        { id: 2, title: "Cached at the edge", image: "https://static.example.com/img/two.jpg" },
      ],
    },
    assetUrl: "https://static.example.com/img/one.jpg",
  },
  setup: { packages: [], keepAssetPath: true },
  sdk: { label: "Generic origin (S3, R2, GCS, any HTTPS origin)", fromOrigins: true },
};
