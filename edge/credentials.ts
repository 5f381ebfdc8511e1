/**
 * Upstream credentials: the sealed token from the snapshot is decrypted in
 * memory only (never logged, never part of a cache key or response) and
 * memoised per sealed value, so a token change (new tokenEnc) is picked up and
 * a hit costs no AES. Injection per auth mode (docs/decisions.md "Tenants").
 */
import { decryptSecret } from "../lib/crypto/mod.ts";
import type { AuthMode } from "../lib/providers/mod.ts";

const plain = new Map<string, Promise<string | null>>();

/**
 * The token for a sealed value, or null when there is none or it cannot be
 * opened (wrong key, corrupt value): the caller answers 502 without detail.
 */
export function openToken(
  key: string | undefined,
  tokenEnc: string | null,
): Promise<string | null> {
  if (!tokenEnc || !key) return Promise.resolve(null);
  let p = plain.get(tokenEnc);
  if (!p) {
    p = decryptSecret(key, tokenEnc).catch(() => null);
    if (plain.size >= 10_000) plain.delete(plain.keys().next().value!);
    plain.set(tokenEnc, p);
  }
  return p;
}

/** Adds the credential to the upstream request per auth mode. */
export function injectCredential(
  mode: AuthMode,
  param: string | null,
  token: string,
  url: URL,
  headers: Headers,
): void {
  switch (mode) {
    case "bearer":
      headers.set("authorization", `Bearer ${token}`);
      return;
    case "basic":
      // SPEC (image host): the token is base64 of `<api_key>:<api_secret>`. A token
      // stored as plain `user:secret` (base64 never contains ":") is encoded here.
      headers.set("authorization", `Basic ${token.includes(":") ? basic(token) : token}`);
      return;
    case "token":
      // `Authorization: Token <t>`, the synonym customers already use (issue 9)
      headers.set("authorization", `Token ${token}`);
      return;
    case "header":
      if (param) headers.set(param, token);
      return;
    case "query":
      if (param) url.searchParams.set(param, token);
      return;
    case "none":
      return;
  }
}

function basic(userPass: string): string {
  let s = "";
  for (const b of new TextEncoder().encode(userPass)) s += String.fromCharCode(b);
  return btoa(s);
}
