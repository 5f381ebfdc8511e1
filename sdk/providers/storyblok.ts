/**
 * Storyblok: a region (default eu) fixes the API and asset hosts; stories by `id` and `uuid`
 * (resolved relations and links too), lists typed by `content_type` and by `starts_with` (as
 * `slug:<folder>`). Webhooks name the story (`story_id`) and the `action` but not its content
 * type, so a story's webhook purges every list.
 *
 * @module
 */
import { answerOf, collectIds, type EntityNotice, noticeOf, record } from "../entities/types.ts";
import { type CanonicalPair, type DraftRefusal, shown } from "./draft_query.ts";
import { bodyField } from "./shared.ts";
import { type ProviderKindDefinition, STORYBLOK_REGIONS, type StoryblokRegion } from "./types.ts";

const HOSTS: Record<StoryblokRegion, { assets: string; api: string }> = {
  eu: { assets: "a.storyblok.com", api: "https://api.storyblok.com/v2/cdn" },
  us: { assets: "a-us.storyblok.com", api: "https://api-us.storyblok.com/v2/cdn" },
  ap: { assets: "a-ap.storyblok.com", api: "https://api-ap.storyblok.com/v2/cdn" },
  ca: { assets: "a-ca.storyblok.com", api: "https://api-ca.storyblok.com/v2/cdn" },
  cn: { assets: "a.storyblokchina.cn", api: "https://app.storyblokchina.cn/v2/cdn" },
};

const hostsOf = (region: StoryblokRegion | null | undefined) => HOSTS[region ?? "eu"] ?? HOSTS.eu;

const ACTIONS: Record<string, EntityNotice["action"]> = {
  published: "publish",
  unpublished: "unpublish",
  deleted: "delete",
  moved: "change",
};

function draftCheck(_path: string, pairs: readonly CanonicalPair[]): DraftRefusal | null {
  for (const pair of pairs) {
    if (pair.name === "version" && pair.value !== "published") {
      return {
        param: shown(pair),
        message: `version=${pair.value || "(empty)"} reads unpublished content: ` +
          "visitors get version=published only (a preview link allows drafts)",
      };
    }
    if (pair.name === "from_release") {
      return {
        param: shown(pair),
        message: "from_release reads an unpublished release: not served to visitors",
      };
    }
  }
  return null;
}

export const storyblok: ProviderKindDefinition<"storyblok"> = {
  kind: "storyblok",
  label: "Storyblok",
  fields: {
    region: {
      check: (v) =>
        (STORYBLOK_REGIONS as readonly string[]).includes(v)
          ? null
          : `must be one of ${STORYBLOK_REGIONS.join(", ")}`,
      label: "Region",
      hint: "the space's region (default eu)",
      placeholder: "eu",
    },
  },
  required: [],
  sdkRequired: [],
  origins(cfg) {
    const h = hostsOf(cfg.region);
    return { api: h.api, assets: [{ role: "assets", url: `https://${h.assets}` }] };
  },
  sources: (cfg) => [{ host: hostsOf(cfg.region).assets, path: "", clean: "" }],
  /** Any path on the region's asset host (strict: only `/f/...`). */
  routes(cfg) {
    const h = hostsOf(cfg.region);
    return {
      route(path, strict) {
        if (path === "/" || (strict && !path.startsWith("/f/"))) return null;
        return { origin: `https://${h.assets}`, path, query: "keep", role: "assets" };
      },
    };
  },
  samplePath: "/f/123456/1200x800/a1b2c3d4e5/hero.jpg",
  upstream: {
    assetHosts: ["a.storyblok.com", "img2.storyblok.com"],
    defaultApiOrigin: "https://api.storyblok.com",
    defaultAuthMode: "query",
    defaultAuthParam: "token",
  },
  webhook: { eventType: (_headers, body) => bodyField(body, "action") ?? bodyField(body, "event") },
  entities: {
    answer(path, params, body) {
      const found = collectIds(
        body,
        (o) => typeof o.uuid === "string" && o.id !== undefined ? [o.id, o.uuid] : null,
      );
      const list = /\/stories\/?$/.test(path);
      const types: string[] = [];
      const ct = params.get("content_type");
      if (ct) types.push(ct);
      const folder = params.get("starts_with");
      if (folder) types.push(`slug:${folder.replace(/\/+$/, "")}`);
      return answerOf(found, types, list);
    },
    notice(_headers, body) {
      const b = record(body);
      if (!b) return { reason: "the payload is not a JSON object" };
      const action = typeof b.action === "string" ? b.action : "";
      if (b.story_id === undefined) {
        return { reason: `action "${action.slice(0, 40)}" names no story_id` };
      }
      return noticeOf(ACTIONS[action] ?? "change", [b.story_id, b.uuid], null);
    },
  },
  drafts: {
    switches: [
      {
        name: "version",
        visitor: "400 unless `published` (the default when absent)",
        preview: "`draft` allowed",
      },
      { name: "from_release", visitor: "400", preview: "allowed" },
    ],
    apiHost: /^api(-[a-z]+)?\.storyblok\.com$|(^|\.)storyblokchina\.cn$/,
    previewHosts: [],
    check: draftCheck,
    published: [],
    refParam: null,
  },
  preview: { defaultSwitch: ["version", "draft"] },
  demo: {
    provider: { cms: "storyblok" },
    apiOrigin: "https://api.storyblok.com/v2/cdn",
    path: "/stories?starts_with=blog%2F&per_page=2",
    body: {
      stories: [
        {
          id: 101,
          name: "Launch week recap",
          full_slug: "blog/launch-week-recap",
          content: {
            component: "post",
            title: "Launch week recap",
            image: { filename: "https://a.storyblok.com/f/123456/1200x630/ab12cd34ef/launch.jpg" },
          },
        },
        {
          id: 102,
          name: "Our roadmap",
          full_slug: "blog/our-roadmap",
          content: {
            component: "post",
            title: "Our roadmap",
            image: { filename: "https://a.storyblok.com/f/123456/1600x900/56gh78ij90/roadmap.png" },
          },
        },
      ],
      cv: 1700000000,
    },
    assetUrl: "https://a.storyblok.com/f/123456/1200x630/ab12cd34ef/launch.jpg",
  },
  setup: {
    packages: [
      "@storyblok/js",
      "@storyblok/react",
      "@storyblok/vue",
      "@storyblok/nuxt",
      "storyblok-js-client",
    ],
    secrets: ["STORYBLOK_TOKEN", "STORYBLOK_ACCESS_TOKEN"],
    ask: false,
    keepAssetPath: true,
  },
};
