/** "Continue with GitHub / Google" links on the log-in and sign-up pages, configured providers only. */
import type { OAuthProviderConfig, OAuthProviderName } from "../lib/config.ts";
import { OAUTH_LABELS } from "../lib/auth/oauth/profile.ts";

export function OAuthButtons(
  props: { providers: Partial<Record<OAuthProviderName, OAuthProviderConfig>>; next: string },
) {
  const names = (["github", "google"] as const).filter((n) => props.providers[n]);
  if (names.length === 0) return null;
  return (
    <p class="oauth-buttons">
      {names.map((n) => (
        <a
          key={n}
          class="button secondary"
          href={`/auth/oauth/${n}?next=${encodeURIComponent(props.next)}`}
        >
          Continue with {OAUTH_LABELS[n]}
        </a>
      ))}
    </p>
  );
}
