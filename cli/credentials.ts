/**
 * Where the CLI keeps its login: `<config dir>/cachely/credentials.json`, mode 0600
 * (the directory 0700). CACHELY_URL and CACHELY_TOKEN override it, so scripts and CI
 * work without `login`. Nothing here writes unless `saveCredentials` is called.
 */
import { CliError } from "./args.ts";

export type Credentials = { url: string; token: string; email?: string; tokenId?: number };

type Env = { get(name: string): string | undefined };

/** The user's config directory for Cachely (CACHELY_CONFIG_DIR overrides it). */
export function configDir(env: Env): string {
  const explicit = env.get("CACHELY_CONFIG_DIR");
  if (explicit) return explicit;
  if (Deno.build.os === "windows") {
    const appData = env.get("APPDATA");
    if (appData) return `${appData}\\cachely`;
  }
  const xdg = env.get("XDG_CONFIG_HOME");
  if (xdg) return `${xdg}/cachely`;
  const home = env.get("HOME") ?? env.get("USERPROFILE");
  if (!home) throw new CliError("Cannot find a config directory: set HOME or CACHELY_CONFIG_DIR");
  return `${home}/.config/cachely`;
}

export function credentialsPath(env: Env): string {
  return `${configDir(env)}/credentials.json`;
}

export async function readStoredCredentials(env: Env): Promise<Credentials | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(credentialsPath(env));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  try {
    const v = JSON.parse(text);
    if (typeof v?.url === "string" && typeof v?.token === "string") return v as Credentials;
  } catch { /* fall through */ }
  throw new CliError(`Unreadable credentials file ${credentialsPath(env)}: run login again`);
}

export async function saveCredentials(env: Env, creds: Credentials): Promise<string> {
  const dir = configDir(env);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const path = credentialsPath(env);
  // Written to a private temp file and renamed, so the secret is never world-readable.
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(creds, null, 2) + "\n", { mode: 0o600 });
  if (Deno.build.os !== "windows") await Deno.chmod(tmp, 0o600);
  await Deno.rename(tmp, path);
  return path;
}

export async function removeCredentials(env: Env): Promise<boolean> {
  try {
    await Deno.remove(credentialsPath(env));
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

export const LOGIN_HINT =
  "Not logged in: run `deno task cli login <url>`, or set CACHELY_URL and CACHELY_TOKEN (a personal access token)";

/** The instance and token to use: the environment first, then the stored login. */
export async function resolveCredentials(env: Env): Promise<Credentials> {
  const stored = await readStoredCredentials(env);
  const url = normaliseUrl(env.get("CACHELY_URL") ?? stored?.url ?? "");
  const envToken = env.get("CACHELY_TOKEN");
  // A stored token only goes to the instance it was issued by.
  const token = envToken ?? (stored && normaliseUrl(stored.url) === url ? stored.token : "");
  if (!url || !token) throw new CliError(LOGIN_HINT);
  return { url, token, email: envToken ? undefined : stored?.email };
}

/** `https://x.example/` -> `https://x.example`; a bare host gets https://. */
export function normaliseUrl(raw: string): string {
  const s = raw.trim();
  if (!s) return "";
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw new CliError(`Invalid URL: ${raw}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new CliError(`Invalid URL: ${raw} (must be http or https)`);
  }
  return (u.origin + u.pathname).replace(/\/+$/, "");
}
