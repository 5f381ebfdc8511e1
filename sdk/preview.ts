/**
 * Editors' previews from a website (docs/providers.md "Previews"). A preview link made in
 * the dashboard, the API or the CLI carries a signed token in `cachely-preview-token`; the
 * website keeps it for the editor's session and sends it with its CMS calls
 * (`createCachelyFetch({ previewToken })`). The edge verifies it: drafts with it, 403 ("Preview
 * link expired: ask for a new one") without a valid one. The token is the editor's key to
 * drafts: keep it in an httpOnly cookie, never in a page.
 *
 * Next.js draft mode, `app/api/preview/route.ts`:
 * ```ts
 * import { cookies, draftMode } from "next/headers";
 * import { nextPreviewRoute } from "@cachely/sdk";
 * export const GET = nextPreviewRoute({ draftMode, cookies });
 * ```
 * then in a server component: `previewToken: await nextPreviewToken({ draftMode, cookies })`.
 *
 * Nuxt preview mode (`usePreviewMode`, Nuxt 3.11+):
 * ```ts
 * const route = useRoute();
 * const { state } = usePreviewMode(nuxtPreviewMode(route.query));
 * const cachelyFetch = createCachelyFetch({ ..., previewToken: state.cachelyPreviewToken });
 * ```
 *
 * @module
 */

/** The query parameter of a preview link (the edge reads it; never sent on to the CMS). */
export const PREVIEW_TOKEN_PARAM = "cachely-preview-token";
/** The cookie the Next.js helper keeps the token in (httpOnly). */
export const PREVIEW_COOKIE = "cachely_preview";

const TOKEN_RE = /^cpl1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The token of a preview link (a URL, or its query), or null when it has none. */
export function previewTokenFrom(link: string | URL | URLSearchParams): string | null {
  const params = link instanceof URLSearchParams
    ? link
    : new URL(String(link), "http://x.invalid").searchParams;
  const t = params.get(PREVIEW_TOKEN_PARAM);
  return t && TOKEN_RE.test(t) ? t : null;
}

/** `url` with the preview token added (for a call made outside createCachelyFetch). */
export function withPreviewToken(url: string | URL, token: string): string {
  const u = new URL(String(url));
  u.searchParams.set(PREVIEW_TOKEN_PARAM, token);
  return u.href;
}

/** A same-site path to go to after entering preview: anything else becomes `/`. */
function safeRedirect(path: string | null): string {
  return path && path.startsWith("/") && !path.startsWith("//") && !path.includes("\\")
    ? path
    : "/";
}

type NextCookies = {
  get(name: string): { value: string } | undefined;
  set(name: string, value: string, options?: Record<string, unknown>): unknown;
};
type NextDeps = {
  draftMode: () =>
    | Promise<{ enable(): void; isEnabled: boolean }>
    | { enable(): void; isEnabled: boolean };
  cookies: () => Promise<NextCookies> | NextCookies;
};

/**
 * A Next.js route handler that enters draft mode from a preview link: it keeps the token in
 * an httpOnly cookie and redirects to `?redirect=` (a same-site path, default `/`). The
 * link to give editors: `https://<site>/api/preview?cachely-preview-token=...&redirect=/blog/x`
 * (the dashboard's link for a site page has the token; add the route's path).
 */
export function nextPreviewRoute(deps: NextDeps): (req: Request) => Promise<Response> {
  return async (req) => {
    const url = new URL(req.url);
    const token = previewTokenFrom(url.searchParams);
    if (!token) {
      return new Response("Preview link is not valid: ask for a new one", { status: 403 });
    }
    (await deps.draftMode()).enable();
    (await deps.cookies()).set(PREVIEW_COOKIE, token, {
      httpOnly: true,
      secure: url.protocol === "https:",
      sameSite: "lax",
      path: "/",
    });
    const to = safeRedirect(url.searchParams.get("redirect"));
    return new Response(null, { status: 307, headers: { location: to } });
  };
}

/** The preview token in draft mode (for createCachelyFetch's `previewToken`), else undefined. */
export async function nextPreviewToken(deps: NextDeps): Promise<string | undefined> {
  if (!(await deps.draftMode()).isEnabled) return undefined;
  const v = (await deps.cookies()).get(PREVIEW_COOKIE)?.value;
  return v && TOKEN_RE.test(v) ? v : undefined;
}

/**
 * Options for Nuxt's `usePreviewMode`: preview is on when the page was opened with a preview
 * link, and its state carries the token (`state.cachelyPreviewToken`).
 */
export function nuxtPreviewMode(query: Record<string, unknown>): {
  shouldEnable: () => boolean;
  getState: (state: Record<string, unknown>) => { cachelyPreviewToken: string | undefined };
} {
  const raw = query[PREVIEW_TOKEN_PARAM];
  const token = typeof raw === "string" && TOKEN_RE.test(raw) ? raw : undefined;
  return {
    shouldEnable: () => token !== undefined,
    getState: (state) => ({
      cachelyPreviewToken: token ?? (state.cachelyPreviewToken as string | undefined),
    }),
  };
}
