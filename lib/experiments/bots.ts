/**
 * Bots in experiments (pure; used by the edge on every experiment request): any crawler on
 * the one list (lib/base/bots.ts) or named like one is served the control variant and never
 * counted as an exposure, so crawlers neither skew splits nor trigger LLM transforms.
 */
import { userAgentKind } from "../base/bots.ts";

/** True for a well-known bot or crawler User-Agent. An empty UA is not a bot. */
export function isBotUserAgent(userAgent: string): boolean {
  return userAgentKind(userAgent) !== "person";
}
