/**
 * Bot protection on assets: scrapers and AI crawlers (lib/base/bots.ts) are answered 403
 * before any cache lookup or upstream fetch, so they cost the tenant no bandwidth. On by
 * default per tenant (`blockBots`); search engines' image crawlers are refused too unless the
 * tenant lets them through (`allowImageSearchBots`).
 *
 * Never refused: general search crawlers (Googlebot, bingbot) and link-preview fetchers
 * (Slackbot, Twitterbot, ...): they show the customer's images to people; nor generic HTTP
 * libraries (a static-site build fetching the customer's own images uses them).
 */
import { userAgentKind } from "../base/bots.ts";

/** True when the asset request is refused under the tenant's settings. */
export function isBlockedBot(
  userAgent: string,
  settings: { blockBots: boolean; allowImageSearchBots: boolean },
): boolean {
  if (!settings.blockBots) return false;
  const kind = userAgentKind(userAgent);
  return kind === "scraper" || (kind === "search-image" && !settings.allowImageSearchBots);
}
