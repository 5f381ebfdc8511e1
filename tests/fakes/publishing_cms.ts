/**
 * A fake Contentful whose delivery CDN lags behind publishes, on a real loopback port: the
 * delivery API (list with `content_type`, one entry by id) serves each entry as it was
 * `lagMs` after its latest publish, as real CDNs do; `publish`, `unpublish` and `remove`
 * answer the webhook Contentful sends (X-Contentful-Topic and the Management API's entry
 * body: `sys.id`, `sys.revision`, `sys.contentType`), for the test to deliver.
 */
import { type FakeUpstream, startUpstream } from "./upstream.ts";

export const PUB_SPACE = "pubspace1";
const ENV = `/spaces/${PUB_SPACE}/environments/master`;

type Version = { type: string; title: string; revision: number } | null;
type History = { visibleAt: number; v: Version }[];

export type Delivery = { topic: string; body: Record<string, unknown> };

export type PublishingCms = {
  url: string;
  /** The tenant's API origin (Contentful's shape: …/spaces/<id>). */
  apiOrigin: string;
  upstream: FakeUpstream;
  /** Delivery requests for one entry's path (`/entries/<id>`) or the list. */
  count(path: string): number;
  publish(id: string, type: string, title: string): Delivery;
  unpublish(id: string): Delivery;
  /** The revision the CMS has published (what the CDN serves once it caught up). */
  revision(id: string): number;
  /** How long the CDN takes to serve what is published from now on. */
  lagMs: number;
  close(): Promise<void>;
  /** `await using cms = startPublishingCms()` closes it when the test's scope ends. */
  [Symbol.asyncDispose](): Promise<void>;
};

function sys(id: string, type: string, revision: number) {
  return {
    space: { sys: { type: "Link", linkType: "Space", id: PUB_SPACE } },
    environment: { sys: { id: "master", type: "Link", linkType: "Environment" } },
    id,
    type: "Entry",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: new Date().toISOString(),
    revision,
    contentType: { sys: { type: "Link", linkType: "ContentType", id: type } },
    locale: "en-US",
  };
}

export function startPublishingCms(opts: { lagMs?: number } = {}): PublishingCms {
  const upstream = startUpstream();
  const entries = new Map<string, History>();
  const revisions = new Map<string, number>();
  const now = () => performance.now();
  const cms: PublishingCms = {
    url: upstream.url,
    apiOrigin: `${upstream.url}/spaces/${PUB_SPACE}`,
    upstream,
    lagMs: opts.lagMs ?? 0,
    count: (path) => upstream.count(`${ENV}${path}`),
    revision: (id) => revisions.get(id) ?? 0,
    publish(id, type, title) {
      const revision = (revisions.get(id) ?? 0) + 1;
      revisions.set(id, revision);
      record(id, { type, title, revision });
      const s = sys(id, type, revision);
      return {
        topic: "ContentManagement.Entry.publish",
        body: {
          sys: { ...s, version: revision * 2, publishedVersion: revision * 2 - 1 },
          fields: { title: { "en-US": title } },
        },
      };
    },
    unpublish(id) {
      const last = entries.get(id)?.at(-1)?.v;
      record(id, null);
      const s = sys(id, last?.type ?? "post", revisions.get(id) ?? 1);
      return {
        topic: "ContentManagement.Entry.unpublish",
        body: { sys: { ...s, type: "DeletedEntry", deletedAt: new Date().toISOString() } },
      };
    },
    close: () => upstream.close(),
    [Symbol.asyncDispose]: () => upstream.close(),
  };
  function record(id: string, v: Version) {
    let h = entries.get(id);
    if (!h) {
      entries.set(id, h = []);
      upstream.route(`${ENV}/entries/${id}`, () => {
        const seen = served(id);
        return seen ? Response.json(entryBody(id, seen)) : notFound(id);
      });
    }
    h.push({ visibleAt: now() + cms.lagMs, v }); // the lag when it was published
  }
  /** What the CDN serves for an entry now: the latest version published lagMs ago. */
  function served(id: string): Version {
    const h = entries.get(id) ?? [];
    let v: Version = null;
    for (const e of h) if (e.visibleAt <= now()) v = e.v;
    return v;
  }
  upstream.route(`${ENV}/entries`, (_req, url) => {
    const ct = url.searchParams.get("content_type");
    const items = [];
    for (const id of [...entries.keys()].sort()) {
      const v = served(id);
      if (v && (ct === null || v.type === ct)) items.push(entryBody(id, v));
    }
    return Response.json({
      sys: { type: "Array" },
      total: items.length,
      skip: 0,
      limit: 100,
      items,
    });
  });
  return cms;
}

function entryBody(id: string, v: NonNullable<Version>) {
  return { sys: sys(id, v.type, v.revision), fields: { title: v.title } };
}

function notFound(id: string): Response {
  return Response.json({
    sys: { type: "Error", id: "NotFound" },
    message: "The resource could not be found.",
    details: { type: "Entry", id },
  }, { status: 404 });
}
