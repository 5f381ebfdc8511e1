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
export declare const PREVIEW_TOKEN_PARAM = "cachely-preview-token";
/** The cookie the Next.js helper keeps the token in (httpOnly). */
export declare const PREVIEW_COOKIE = "cachely_preview";
/** The token of a preview link (a URL, or its query), or null when it has none. */
export declare function previewTokenFrom(link: string | URL | URLSearchParams): string | null;
/** `url` with the preview token added (for a call made outside createCachelyFetch). */
export declare function withPreviewToken(url: string | URL, token: string): string;
type NextCookies = {
    get(name: string): {
        value: string;
    } | undefined;
    set(name: string, value: string, options?: Record<string, unknown>): unknown;
};
type NextDeps = {
    draftMode: () => Promise<{
        enable(): void;
        isEnabled: boolean;
    }> | {
        enable(): void;
        isEnabled: boolean;
    };
    cookies: () => Promise<NextCookies> | NextCookies;
};
/**
 * A Next.js route handler that enters draft mode from a preview link: it keeps the token in
 * an httpOnly cookie and redirects to `?redirect=` (a same-site path, default `/`). The
 * link to give editors: `https://<site>/api/preview?cachely-preview-token=...&redirect=/blog/x`
 * (the dashboard's link for a site page has the token; add the route's path).
 */
export declare function nextPreviewRoute(deps: NextDeps): (req: Request) => Promise<Response>;
/** The preview token in draft mode (for createCachelyFetch's `previewToken`), else undefined. */
export declare function nextPreviewToken(deps: NextDeps): Promise<string | undefined>;
/**
 * Options for Nuxt's `usePreviewMode`: preview is on when the page was opened with a preview
 * link, and its state carries the token (`state.cachelyPreviewToken`).
 */
export declare function nuxtPreviewMode(query: Record<string, unknown>): {
    shouldEnable: () => boolean;
    getState: (state: Record<string, unknown>) => {
        cachelyPreviewToken: string | undefined;
    };
};
export {};
