/**
 * Upstream credentials: the sealed token from the snapshot is decrypted in
 * memory only (never logged, never part of a cache key or response) and
 * memoised per sealed value, so a token change (new tokenEnc) is picked up and
 * a hit costs no AES. Injection per auth mode (docs/decisions.md "Tenants"), and scrubbing
 * from what an upstream echoes. Pure helpers shared by the edge's API proxy (edge/api_proxy.ts)
 * and the AI transform's upstream read (lib/ai/upstream.ts): no database, no services.
 */
import { decryptSecret } from "../crypto/mod.ts";
import type { AuthMode } from "../providers/mod.ts";

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
  headers: { set(name: string, value: string): void },
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
      // `Authorization: Token <t>`, the synonym customers already use
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

/** Per token: every form of it an upstream might echo (memoised, so a miss costs no base64). */
const formsByToken = new Map<string, readonly string[]>();

/**
 * The strings to scrub from what an upstream echoes: the token, and in Basic mode also
 * the other encoding of the credential (`user:secret` and its base64, whichever was not
 * stored) and the secret half alone; each also URL-encoded. `Basic ...` contains the
 * base64 form. Forms under 4 characters are skipped (they would maim ordinary text).
 */
export function credentialForms(mode: AuthMode, token: string): readonly string[] {
  const key = `${mode}\n${token}`;
  let forms = formsByToken.get(key);
  if (forms) return forms;
  const raw = new Set([token]);
  if (mode === "basic") {
    const plain = token.includes(":") ? token : decodeBasic(token);
    if (plain) {
      raw.add(plain);
      raw.add(basic(plain));
      const secret = plain.slice(plain.indexOf(":") + 1);
      if (secret.length >= 8) raw.add(secret);
    }
  }
  const all = new Set<string>();
  for (const f of raw) {
    if (f.length < 4) continue;
    all.add(f);
    all.add(encodeURIComponent(f));
  }
  forms = [...all];
  if (formsByToken.size >= 10_000) formsByToken.delete(formsByToken.keys().next().value!);
  formsByToken.set(key, forms);
  return forms;
}

/**
 * Removes the credential from a body: some APIs echo request URLs (Prismic's
 * `next_page` carries `access_token`) or headers, and a cached body is public.
 * `forms` comes from credentialForms() (every encoding of the credential).
 */
export function scrubToken(text: string, forms: readonly string[]): string {
  let out = text;
  for (const f of forms) if (out.includes(f)) out = out.replaceAll(f, "");
  return out;
}

/** `user:secret` from a base64 Basic credential, or null when it is not one. */
function decodeBasic(b64: string): string | null {
  try {
    const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return text.includes(":") ? text : null;
  } catch {
    return null;
  }
}

function basic(userPass: string): string {
  let s = "";
  for (const b of new TextEncoder().encode(userPass)) s += String.fromCharCode(b);
  return btoa(s);
}
