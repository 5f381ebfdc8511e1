/** login, logout, whoami. */
import { CliError } from "../args.ts";
import { ApiClient, ApiFailure } from "../api.ts";
import {
  normaliseUrl,
  readStoredCredentials,
  removeCredentials,
  resolveCredentials,
  saveCredentials,
} from "../credentials.ts";
import { type Command, type Io, keyValues } from "../command.ts";

type Me = { user: { id: string; email: string; name: string | null; isAdmin: boolean } };

/** Logs in with email + password on a short-lived session and exchanges it for a PAT. */
async function tokenFromPassword(url: string, email: string, password: string, name: string) {
  const origin = new URL(url).origin;
  // Cookie sessions must show our own Origin on writes (CSRF check, lib/http/auth.ts).
  const headers = { origin, "content-type": "application/json", accept: "application/json" };
  const call = async (path: string, body: unknown, cookie?: string) => {
    let res: Response;
    try {
      res = await fetch(url + path, {
        method: "POST",
        headers: cookie ? { ...headers, cookie } : headers,
        body: JSON.stringify(body),
      });
    } catch (e) {
      throw new CliError(`Cannot reach ${url}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const text = await res.text();
    let json: { error?: { code?: string; message?: string } } & Record<string, unknown> = {};
    try {
      json = JSON.parse(text);
    } catch { /* reported below */ }
    if (!res.ok) {
      throw new ApiFailure(
        res.status,
        json.error?.code ?? "http_error",
        json.error?.message ?? `HTTP ${res.status} from ${url}${path}`,
      );
    }
    return { res, json };
  };
  const login = await call("/api/auth/login", { email, password });
  const cookie = login.res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  if (!cookie) throw new CliError(`Log-in at ${url} gave no session`);
  try {
    const created = await call("/api/user/tokens", { name }, cookie);
    return created.json as { id: number; token: string };
  } finally {
    // The session was only a means to the token.
    await call("/api/auth/logout", {}, cookie).catch(() => {});
  }
}

async function ask(io: Io, flag: string | boolean | undefined, question: string) {
  if (typeof flag === "string") return flag;
  if (!io.stdinIsTerminal()) throw new CliError(`Missing --${question.toLowerCase()}`);
  return (await io.prompt(`${question}: `)).trim();
}

const login: Command = {
  path: ["login"],
  args: "<url>",
  minArgs: 1,
  summary: "log in to an instance and store a personal access token",
  details: `Asks for email and password (or --email, with the password on stdin), creates a personal
access token named after this machine, and stores it in the user's config directory
(credentials.json, mode 0600). --token-stdin stores an existing token read from stdin instead.`,
  flags: { email: "string", "token-stdin": "bool", name: "string" },
  flagHelp: {
    email: "account email (else asked)",
    "token-stdin": "read an existing personal access token from stdin",
    name: "token name (default cli@<hostname>)",
  },
  async run(ctx) {
    const url = normaliseUrl(ctx.args[0]);
    let token: string;
    let tokenId: number | undefined;
    if (ctx.flags["token-stdin"]) {
      token = (await ctx.io.readStdin()).trim();
      if (!token) throw new CliError("No token on stdin");
    } else {
      const email = await ask(ctx.io, ctx.flags.email, "Email");
      const password = ctx.io.stdinIsTerminal()
        ? await ctx.io.prompt("Password: ", true)
        : (await ctx.io.readStdin()).replace(/\r?\n$/, "");
      if (!password) throw new CliError("No password given");
      const name = typeof ctx.flags.name === "string" ? ctx.flags.name : `cli@${hostname()}`;
      ({ token, id: tokenId } = await tokenFromPassword(url, email, password, name));
    }
    const me = await new ApiClient(url, token).get<Me>("/api/auth/me");
    const path = await saveCredentials(ctx.io.env, { url, token, email: me.user.email, tokenId });
    ctx.print(
      { ok: true, url, email: me.user.email, credentials: path },
      () => `Logged in to ${url} as ${me.user.email} (token stored in ${path})`,
    );
  },
};

const logout: Command = {
  path: ["logout"],
  summary: "revoke the stored token (when this CLI created it) and forget the login",
  async run(ctx) {
    const stored = await readStoredCredentials(ctx.io.env);
    if (!stored) {
      ctx.print({ ok: true, loggedOut: false }, () => "Not logged in");
      return;
    }
    if (stored.tokenId !== undefined) {
      await new ApiClient(stored.url, stored.token).delete(`/api/user/tokens/${stored.tokenId}`)
        .catch((e) => {
          // An already revoked token is what we wanted anyway.
          if (!(e instanceof ApiFailure && (e.status === 401 || e.status === 404))) throw e;
        });
    }
    await removeCredentials(ctx.io.env);
    ctx.print({ ok: true, loggedOut: true, url: stored.url }, () => `Logged out of ${stored.url}`);
  },
};

const whoami: Command = {
  path: ["whoami"],
  summary: "show the account and instance in use",
  async run(ctx) {
    const creds = await resolveCredentials(ctx.io.env);
    const me = await (await ctx.api()).get<Me>("/api/auth/me");
    const data = { url: creds.url, ...me.user };
    ctx.print(data, () =>
      keyValues({
        email: me.user.email,
        name: me.user.name,
        instance: creds.url,
        masterAdmin: me.user.isAdmin,
      }));
  },
};

function hostname(): string {
  try {
    return Deno.hostname();
  } catch {
    return "unknown";
  }
}

export const authCommands: Command[] = [login, logout, whoami];
