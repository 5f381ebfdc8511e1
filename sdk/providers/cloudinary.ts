/**
 * Cloudinary, the image/video host (SPEC "The image/video host integration"): a cloud name;
 * `[/<cloud>]/image|video/upload/...` on the image host, which the server may point elsewhere
 * (`ProviderEnv`); its API takes Basic credentials made of the API key and secret.
 *
 * @module
 */
import { escapePathLiteral as lit, type SourceRule } from "../rewrite.ts";
import { DEFAULT_IMAGE_API, DEFAULT_IMAGE_HOST, hostOf, NO_ROUTES } from "./shared.ts";
import type { ProviderKindDefinition } from "./types.ts";

/** The image host's example cloud (the provider's own public demo cloud). */
const DEMO_CLOUD_NAME = "demo";

/** `<cloud_name>-res.<provider domain>`, where the provider domain is the asset host minus `res.`. */
function privateDistributionHost(assetHost: string, cloudName: string): string | null {
  if (!assetHost.startsWith("res.")) return null;
  return `${cloudName}-res.${assetHost.slice(4)}`;
}

export const cloudinary: ProviderKindDefinition<"cloudinary"> = {
  kind: "cloudinary",
  label: "Cloudinary",
  fields: {
    cloudName: {
      rule: { re: /^[A-Za-z0-9_-]{1,64}$/, message: "must be 1-64 of letters, digits, _ and -" },
      label: "Cloud name",
      hint: "from the media library",
      placeholder: "demo",
    },
  },
  required: ["cloudName"],
  sdkRequired: ["cloudName"],
  origins(cfg, env) {
    const c = cfg.cloudName;
    if (!c) return { api: null, assets: [] };
    const host = (env.imageHostOrigin ?? DEFAULT_IMAGE_HOST).replace(/\/+$/, "");
    return {
      api: `${(env.imageHostApiOrigin ?? DEFAULT_IMAGE_API).replace(/\/+$/, "")}/v1_1/${c}`,
      assets: [
        { role: "images", url: `${host}/${c}` },
        { role: "videos", url: `${host}/${c}` },
      ],
    };
  },
  sources(cfg, env, keepCloudName) {
    const c = cfg.cloudName;
    if (!c) return [];
    const host = hostOf(env.imageHostOrigin ?? DEFAULT_IMAGE_HOST);
    const seg = keepCloudName ? `/${c}` : "";
    const clean = (m: string) => `${seg}/${/\/video\/upload$/i.test(m) ? "video" : "image"}/upload`;
    const out: SourceRule[] = [
      { host, path: `${lit(c)}/(?:image|video)/upload`, clean },
    ];
    if (host.startsWith("res.")) {
      out.push({ host: `${c}-res.${host.slice(4)}`, path: "(?:image|video)/upload", clean });
    }
    return out;
  },
  /** `[/<cloud>]/image|video/upload/...` on the image host; the query is dropped. */
  routes(cfg, env) {
    const c = cfg.cloudName;
    if (!c) return NO_ROUTES;
    const origin = `${(env.imageHostOrigin ?? DEFAULT_IMAGE_HOST).replace(/\/+$/, "")}/${c}`;
    const cloudPrefix = `/${c}/`;
    return {
      route(path) {
        let rest = path;
        if (rest.startsWith(cloudPrefix)) rest = rest.slice(cloudPrefix.length - 1);
        const video = rest.startsWith("/video/upload/");
        if (!video && !rest.startsWith("/image/upload/")) return null;
        // SPEC: query parameters on image URLs are stripped from the cache key
        return { origin, path: rest, query: "drop", role: video ? "videos" : "images" };
      },
    };
  },
  samplePath: "/image/upload/w_800,c_fill/v1700000000/hero.jpg",
  // No legacy `/~assets/` hosts: the image host's URLs always had their own rules.
  upstream: { assetHosts: [], defaultApiOrigin: null, defaultAuthMode: "basic" },
  upstreamFor(env, cloudName) {
    const assetOrigin = env.imageHostOrigin ?? DEFAULT_IMAGE_HOST;
    const host = new URL(assetOrigin).host;
    return {
      assetHosts: [host],
      defaultApiOrigin: `${env.imageHostApiOrigin ?? DEFAULT_IMAGE_API}/v1_1/${cloudName}`,
      defaultAuthMode: "basic",
      privateHost: privateDistributionHost(host, cloudName),
    };
  },
  /** Basic credential for the image host API: base64 of `<api_key>:<api_secret>`. */
  tokenFromKeys(apiKey, apiSecret) {
    const bytes = new TextEncoder().encode(`${apiKey}:${apiSecret}`);
    let s = "";
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s);
  },
  demo: {
    provider: { cms: "cloudinary", cloudName: DEMO_CLOUD_NAME },
    apiOrigin: `https://api.cloudinary.com/v1_1/${DEMO_CLOUD_NAME}`,
    path: "/resources/image?max_results=2",
    body: {
      resources: [
        {
          public_id: "samples/landscapes/beach-boat",
          format: "jpg",
          width: 1920,
          height: 1280,
          secure_url:
            "https://res.cloudinary.com/demo/image/upload/v1700000000/samples/landscapes/beach-boat.jpg",
        },
        {
          public_id: "samples/food/dessert",
          format: "jpg",
          width: 1280,
          height: 853,
          secure_url:
            "https://res.cloudinary.com/demo/image/upload/v1700000000/samples/food/dessert.jpg",
        },
      ],
    },
    assetUrl: "https://res.cloudinary.com/demo/image/upload/w_400,c_scale/samples/food/dessert.jpg",
  },
  setup: {
    packages: ["cloudinary", "@cloudinary/url-gen", "next-cloudinary"],
    envName: "CLOUDINARY_CLOUD_NAME",
  },
};
