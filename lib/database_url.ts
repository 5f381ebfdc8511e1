/**
 * PostgreSQL connection URLs as postgres.js reads them. Its parser splits the host at ":", so
 * an IPv6 literal (`postgres://u@[2001:db8::1]:5432/db`) became host "[2001" and port NaN,
 * and the connect threw from a timer, which ended the process (porsager/postgres#663, open).
 * And a URL the WHATWG parser refuses (a `#` or `/` left unencoded in a password) threw from
 * inside the driver at start-up, with a stack instead of the variable's name. Not under
 * lib/db/: lib/config.ts reads it, and the edge's module graph reaches nothing there.
 */

/**
 * The URL as postgres.js parses it: a multi-host URL (`h1:5432,h2:5433`) is read with its
 * first host only. Throws TypeError when it is not a URL.
 */
function asUrl(url: string): URL {
  const at = url.indexOf("://") + 3;
  const authority = url.slice(at).split(/[?/]/)[0];
  const hosts = authority.slice(authority.lastIndexOf("@") + 1);
  return new URL(url.replace(hosts, hosts.split(",")[0]));
}

/** Why `url` cannot be a PostgreSQL URL (for config errors; never quotes it), or null. */
export function postgresUrlProblem(url: string): string | null {
  if (!/^postgres(ql)?:\/\//.test(url)) return "must be a postgres:// URL";
  try {
    asUrl(url);
    return null;
  } catch {
    return "is not a valid URL (percent-encode @ : / # ? in the user name and password)";
  }
}

/**
 * Options that make postgres.js reach `url`'s host: for an IPv6 literal the host and port as
 * it cannot read them from the URL; nothing otherwise (the URL says it all). They are lists,
 * as postgres.js keeps them after parsing (a host string would be split at ":" again); its
 * types declare the single values only.
 */
export function postgresAddress(url: string): { host?: string; port?: number } {
  const u = asUrl(url);
  if (!u.hostname.startsWith("[")) return {};
  const host = [u.hostname.slice(1, -1)];
  const port = [Number(u.port || 5432)];
  return { host: host as unknown as string, port: port as unknown as number };
}
