/**
 * Provider kinds for lib/ and edge/: the SDK's rule set (sdk/providers.ts, derived from the
 * kinds' definitions in sdk/providers/), re-exported so server and SDK use one rule set, and
 * the server's views of it: a kind's upstream defaults (legacy asset hosts, default API
 * origin, auth mode), the kinds with cache-refresh webhooks and their event types.
 */
import {
  type AuthMode,
  definitionOf,
  PROVIDER_LIST,
  type ProviderKind,
} from "../../sdk/providers.ts";

export * from "../../sdk/providers.ts";
export * from "../../sdk/drafts.ts";
export { AUTH_MODES } from "../../sdk/providers/types.ts";

/** Cache-refresh webhook providers: the kinds whose definition reads webhooks (SPEC). */
export const WEBHOOK_PROVIDERS: readonly ProviderKind[] = PROVIDER_LIST
  .filter((d) => "webhook" in d).map((d) => d.kind);

export type ProviderContext = {
  imageHostAssetOrigin: string;
  imageHostApiOrigin: string;
};

/** A kind's upstream defaults, as the server creates and checks tenants with them. */
type ProviderUpstream = {
  kind: ProviderKind;
  label: string;
  /**
   * Legacy: hosts served under `/~assets/<host>/` (URLs issued before clean URLs;
   * still answered, or 301 to the clean form when the tenant's identifier maps them).
   */
  assetHosts: string[];
  defaultApiOrigin: string | null;
  defaultAuthMode: AuthMode;
  /** Header or query parameter name for the `header` and `query` auth modes. */
  defaultAuthParam?: string;
  /** The image host's private distribution host (`<cloud>-res.<domain>`), where it has one. */
  privateHost?: string | null;
};

export function providerFor(
  cms: ProviderKind,
  ctx: ProviderContext,
  cloudName?: string | null,
): ProviderUpstream {
  const d = definitionOf(cms);
  const env = {
    imageHostOrigin: ctx.imageHostAssetOrigin,
    imageHostApiOrigin: ctx.imageHostApiOrigin,
  };
  return { kind: cms, label: d.label, ...(d.upstreamFor?.(env, cloudName ?? "") ?? d.upstream) };
}

/**
 * The event type of a cache-refresh webhook delivery, as the kind's definition reads it
 * (Contentful's X-Contentful-Topic header, Sanity's body.type, ...); null for none.
 */
export function webhookEventType(
  provider: ProviderKind,
  headers: Headers,
  body: unknown,
): string | null {
  return definitionOf(provider).webhook?.eventType(headers, body) ?? null;
}
