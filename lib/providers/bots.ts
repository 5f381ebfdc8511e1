/**
 * Bot protection on assets (issue 9): the maintained list of User-Agent tokens
 * of scrapers and AI crawlers that are answered 403 before any cache lookup or
 * upstream fetch, so they cost the tenant no bandwidth. On by default per tenant
 * (`blockBots`); search engines' image crawlers are a list of their own that the
 * tenant can let through (`allowImageSearchBots`).
 *
 * Not on the list on purpose: general search crawlers (Googlebot, bingbot) and
 * link-preview fetchers (Slackbot, Twitterbot, …): they show the customer's
 * images to people; nor generic HTTP libraries (a static-site build fetching the
 * customer's own images uses them). Matching is case-insensitive on substrings. To maintain the
 * list, add the crawler's product token here and a line to docs/providers.md.
 */

/** AI training and answer-engine crawlers. */
export const AI_CRAWLER_TOKENS: readonly string[] = [
  "gptbot",
  "chatgpt-user",
  "oai-searchbot",
  "claudebot",
  "claude-web",
  "claude-searchbot",
  "anthropic-ai",
  "ccbot",
  "bytespider",
  "perplexitybot",
  "perplexity-user",
  "amazonbot",
  "cohere-ai",
  "cohere-training-data-crawler",
  "meta-externalagent",
  "meta-externalfetcher",
  "google-cloudvertexbot",
  "applebot-extended",
  "diffbot",
  "youbot",
  "timpibot",
  "omgili",
  "imagesiftbot",
  "ai2bot",
  "friendlycrawler",
  "img2dataset",
  "petalbot",
  "scrapy",
];

/** SEO and data scrapers. */
export const SCRAPER_TOKENS: readonly string[] = [
  "ahrefsbot",
  "semrushbot",
  "mj12bot",
  "dotbot",
  "blexbot",
  "dataforseobot",
  "serpstatbot",
  "megaindex",
  "barkrowler",
  "seekportbot",
  "zoominfobot",
  "magpie-crawler",
  "httrack",
];

/** Search engines' image crawlers: blocked unless the tenant allows them. */
export const SEARCH_IMAGE_BOT_TOKENS: readonly string[] = [
  "googlebot-image",
  "yandeximages",
  "baiduspider-image",
  "sogou pic spider",
  "bingbot-image",
];

const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const BLOCKED_RE = new RegExp([...AI_CRAWLER_TOKENS, ...SCRAPER_TOKENS].map(escape).join("|"), "i");
const SEARCH_IMAGE_RE = new RegExp(SEARCH_IMAGE_BOT_TOKENS.map(escape).join("|"), "i");

/** Longest prefix of a User-Agent inspected: bounds the cost of hostile headers. */
const MAX_UA_CHARS = 512;
/** Verdicts of recently seen User-Agents (real traffic repeats a few hundred strings). */
const memo = new Map<string, BotKind>();
const MEMO_MAX = 4096;

/** What a User-Agent is, as far as asset protection cares. */
export type BotKind = "blocked" | "search-image" | "none";

/** Classifies a User-Agent (memoised; an empty UA is not a bot). */
export function assetBotKind(userAgent: string): BotKind {
  if (userAgent === "") return "none";
  const ua = userAgent.length > MAX_UA_CHARS ? userAgent.slice(0, MAX_UA_CHARS) : userAgent;
  let kind = memo.get(ua);
  if (kind === undefined) {
    kind = BLOCKED_RE.test(ua) ? "blocked" : SEARCH_IMAGE_RE.test(ua) ? "search-image" : "none";
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(ua, kind);
  }
  return kind;
}

/** True when the asset request is refused under the tenant's settings. */
export function isBlockedBot(
  userAgent: string,
  settings: { blockBots: boolean; allowImageSearchBots: boolean },
): boolean {
  if (!settings.blockBots) return false;
  const kind = assetBotKind(userAgent);
  return kind === "blocked" || (kind === "search-image" && !settings.allowImageSearchBots);
}
