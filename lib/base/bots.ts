/**
 * The one list of crawler User-Agent tokens, by what the crawler does with what it fetches,
 * and the one classifier over it (pure, memoised; the edge calls it on every asset and
 * experiment request). Policies read the kind: asset protection refuses scrapers and, unless
 * the tenant allows them, search-image crawlers (lib/providers/bots.ts); experiments serve
 * every bot the control variant, uncounted (lib/experiments/bots.ts).
 *
 * Matching is case-insensitive on substrings. Browsers and automation libraries that stand
 * for a person (HeadlessChrome, curl, fetch clients) are on no list: a static-site build
 * fetching the customer's own images uses them. To maintain the list, add the crawler's
 * product token to its kind here and a line to docs/providers.md.
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

/** Search engines' image crawlers. */
export const SEARCH_IMAGE_BOT_TOKENS: readonly string[] = [
  "googlebot-image",
  "yandeximages",
  "baiduspider-image",
  "sogou pic spider",
  "bingbot-image",
];

/**
 * Crawlers that show or check the customer's pages for people: general search crawlers,
 * link-preview fetchers, archivers, SEO audit tools and uptime monitors.
 */
export const OTHER_BOT_TOKENS: readonly string[] = [
  "googlebot",
  "google-inspectiontool",
  "googleother",
  "adsbot-google",
  "mediapartners-google",
  "feedfetcher-google",
  "storebot-google",
  "bingbot",
  "bingpreview",
  "msnbot",
  "adidxbot",
  "slurp",
  "duckduckbot",
  "duckassistbot",
  "baiduspider",
  "yandexbot",
  "yandex.com/bots",
  "exabot",
  "seznambot",
  "yeti/",
  "applebot",
  "facebookexternalhit",
  "facebot",
  "twitterbot",
  "linkedinbot",
  "pinterestbot",
  "redditbot",
  "slackbot",
  "slack-imgproxy",
  "discordbot",
  "telegrambot",
  "whatsapp",
  "skypeuripreview",
  "embedly",
  "vkshare",
  "ia_archiver",
  "archive.org_bot",
  "rogerbot",
  "screaming frog",
  "uptimerobot",
  "pingdom",
  "lighthouse",
  "chrome-lighthouse",
];

/** Every named token, of every kind. */
export const KNOWN_BOT_TOKENS: readonly string[] = [
  ...AI_CRAWLER_TOKENS,
  ...SCRAPER_TOKENS,
  ...SEARCH_IMAGE_BOT_TOKENS,
  ...OTHER_BOT_TOKENS,
];

const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const anyOf = (tokens: readonly string[]) => tokens.map(escape).join("|");
const SCRAPER_RE = new RegExp(anyOf([...AI_CRAWLER_TOKENS, ...SCRAPER_TOKENS]), "i");
const SEARCH_IMAGE_RE = new RegExp(anyOf(SEARCH_IMAGE_BOT_TOKENS), "i");
// The named tokens, a generic "<name>bot/<version>" or "crawler", "spider" product token, and
// the "+http(s)://" contact link crawlers put in their User-Agent (browsers never do).
const BOT_RE = new RegExp(
  [anyOf(KNOWN_BOT_TOKENS), "[a-z0-9_-]bot/\\d", "(?:crawler|spider)\\b", "\\+https?://"].join(
    "|",
  ),
  "i",
);

/** What a User-Agent is: a scraper (AI or SEO), a search-image crawler, another bot, a person. */
export type UserAgentKind = "scraper" | "search-image" | "bot" | "person";

/** Longest prefix of a User-Agent inspected: bounds the cost of hostile headers. */
const MAX_UA_CHARS = 512;
/** Verdicts of recently seen User-Agents (real traffic repeats a few hundred strings). */
const memo = new Map<string, UserAgentKind>();
const MEMO_MAX = 4096;

/** Classifies a User-Agent (memoised; an empty UA is a person). */
export function userAgentKind(userAgent: string): UserAgentKind {
  if (userAgent === "") return "person";
  const ua = userAgent.length > MAX_UA_CHARS ? userAgent.slice(0, MAX_UA_CHARS) : userAgent;
  let kind = memo.get(ua);
  if (kind === undefined) {
    kind = SCRAPER_RE.test(ua)
      ? "scraper"
      : SEARCH_IMAGE_RE.test(ua)
      ? "search-image"
      : BOT_RE.test(ua)
      ? "bot"
      : "person";
    if (memo.size >= MEMO_MAX) memo.clear(); // bounded: hostile UA floods only reset it
    memo.set(ua, kind);
  }
  return kind;
}
