/**
 * Well-known bots and crawlers (pure; used by the edge on every experiment request).
 * They are served the control variant and never counted as exposures, so crawlers
 * neither skew splits nor trigger LLM transforms (docs/decisions.md lists the tokens).
 *
 * Browsers and automation libraries that stand for a person (HeadlessChrome, curl,
 * fetch clients) are deliberately not on the list: they are visitors as far as we know.
 */

/** Case-insensitive substrings that name a crawler in its User-Agent. */
export const BOT_UA_TOKENS: readonly string[] = [
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
  "petalbot",
  "facebookexternalhit",
  "facebot",
  "meta-externalagent",
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
  "semrushbot",
  "ahrefsbot",
  "mj12bot",
  "dotbot",
  "rogerbot",
  "screaming frog",
  "gptbot",
  "chatgpt-user",
  "oai-searchbot",
  "claudebot",
  "claude-web",
  "anthropic-ai",
  "perplexitybot",
  "ccbot",
  "bytespider",
  "amazonbot",
  "cohere-ai",
  "diffbot",
  "uptimerobot",
  "pingdom",
  "lighthouse",
  "chrome-lighthouse",
];

// One compiled expression: the named tokens, a generic "<name>bot/<version>" or
// "crawler/", "spider/" product token, and the "+http(s)://" contact link crawlers put in
// their User-Agent (browsers never do). Built once at module load.
const BOT_RE = new RegExp(
  [
    ...BOT_UA_TOKENS.map((t) => t.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")),
    "[a-z0-9_-]bot/\\d",
    "(?:crawler|spider)\\b",
    "\\+https?://",
  ].join("|"),
  "i",
);

/** Longest prefix of a User-Agent inspected: bounds the cost of hostile headers. */
const MAX_UA_CHARS = 512;

/** Verdicts of recently seen User-Agents: real traffic repeats a few hundred strings. */
const memo = new Map<string, boolean>();
const MEMO_MAX = 4096;

/** True for a well-known bot or crawler User-Agent. An empty UA is not a bot. */
export function isBotUserAgent(userAgent: string): boolean {
  if (userAgent === "") return false;
  const ua = userAgent.length > MAX_UA_CHARS ? userAgent.slice(0, MAX_UA_CHARS) : userAgent;
  let bot = memo.get(ua);
  if (bot === undefined) {
    bot = BOT_RE.test(ua);
    if (memo.size >= MEMO_MAX) memo.clear(); // bounded: hostile UA floods only reset it
    memo.set(ua, bot);
  }
  return bot;
}
