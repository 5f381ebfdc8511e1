/**
 * The Prismic onboarder's patch of a Nuxt project's own client: @nuxtjs/prismic
 * takes its client from `~/app/prismic/client` (its `client` option's default). When that
 * file is trivial (one `createClient(repository[, options])` of `@prismicio/client` and no
 * other use of that import), `cachely setup prismic` swaps the call for
 * `createCachelyPrismicClient({ repositoryName, ...options })`, which goes through Cachely
 * when CACHELY_PROXY_URL is set and straight to Prismic (with the file's `accessToken`)
 * when it is not. Anything else is "complex": left alone, with instructions to print.
 * Pure text in, text out: no parser, so the accepted shape is deliberately narrow.
 */

/** Where @nuxtjs/prismic looks for a custom client, in the order setup checks them. */
export const NUXT_PRISMIC_CLIENT_FILES = ["app/prismic/client.js", "app/prismic/client.ts"];

/** First line of a patched client (and how a second run knows it is done). */
export const PATCH_MARK = "// Patched by cachely setup";

export type ClientPatch =
  | { status: "patched"; text: string }
  | { status: "already" }
  | { status: "complex"; reason: string };

const IMPORT_RE =
  /^[ \t]*import\s+(?:\*\s+as\s+([A-Za-z_$][\w$]*)|\{\s*createClient(?:\s+as\s+([A-Za-z_$][\w$]*))?\s*,?\s*\})\s+from\s+(["'])@prismicio\/client\3;?[ \t]*\r?\n?/gm;

/** `https://<repo>.cdn.prismic.io/api/v2` (a createClient endpoint) -> `<repo>`. */
const ENDPOINT_RE = /^(["'`])https:\/\/([a-z0-9][a-z0-9-]*)\.cdn\.prismic\.io\/api(?:\/v2)?\/?\1$/;

/**
 * Splits the arguments of the call whose `(` is at `open`: the top-level comma-separated
 * texts and the index of the closing `)`, or null when the text is not simple enough to
 * patch by hand (template substitutions, comments, unbalanced brackets).
 */
function callArguments(src: string, open: number): { args: string[]; close: number } | null {
  const args: string[] = [];
  const stack: string[] = [];
  let start = open + 1;
  for (let i = open + 1; i < src.length; i++) {
    const ch = src[i];
    if (ch === '"' || ch === "'" || ch === "`") {
      let j = i + 1;
      while (j < src.length && src[j] !== ch) {
        if (src[j] === "\\") j++;
        else if (ch === "`" && src[j] === "$" && src[j + 1] === "{") return null;
        else if (ch !== "`" && src[j] === "\n") return null;
        j++;
      }
      if (j >= src.length) return null;
      i = j;
    } else if (ch === "/" && (src[i + 1] === "/" || src[i + 1] === "*")) {
      return null;
    } else if (ch === "(" || ch === "[" || ch === "{") {
      stack.push(ch === "(" ? ")" : ch === "[" ? "]" : "}");
    } else if (ch === ")" || ch === "]" || ch === "}") {
      if (stack.length === 0) {
        if (ch !== ")") return null;
        const last = src.slice(start, i).trim();
        if (last !== "") args.push(last);
        else if (args.length > 0 && !/,\s*$/.test(src.slice(open + 1, i))) return null;
        return { args, close: i };
      }
      if (stack.pop() !== ch) return null;
    } else if (ch === "," && stack.length === 0) {
      const arg = src.slice(start, i).trim();
      if (arg === "") return null;
      args.push(arg);
      start = i + 1;
    }
  }
  return null;
}

/** The options object with `repositoryName` first, in the file's own layout. */
function cachelyOptions(repo: string, options: string | undefined, indent: string): string {
  const name = repo === "repositoryName" ? "repositoryName" : `repositoryName: ${repo}`;
  if (options === undefined) return `{ ${name} }`;
  if (!options.startsWith("{")) return `{ ${name}, ...${options} }`;
  const inner = options.slice(1, -1);
  if (inner.trim() === "") return `{ ${name} }`;
  const nl = /^[ \t]*\r?\n([ \t]*)/.exec(inner);
  if (nl) return `{\n${nl[1] || `${indent}  `}${name},${inner}}`;
  return `{ ${name}, ${inner.trim()} }`;
}

/** The patched text of a Nuxt Prismic client file, or why it is left alone. */
export function patchPrismicClient(src: string): ClientPatch {
  if (src.startsWith(PATCH_MARK) || src.includes("@cachely/sdk/prismic")) {
    return { status: "already" };
  }
  const imports = [...src.matchAll(IMPORT_RE)];
  if (imports.length !== 1) {
    return {
      status: "complex",
      reason: imports.length === 0
        ? "no `import * as prismic` or `import { createClient }` of @prismicio/client"
        : "more than one import of @prismicio/client",
    };
  }
  if ((src.match(/@prismicio\/client/g) ?? []).length !== 1) {
    return { status: "complex", reason: "other imports of @prismicio/client" };
  }
  const [imp, namespace, alias, quote] = imports[0];
  const at = imports[0].index!;
  const rest = src.slice(0, at) + src.slice(at + imp.length);
  // comments may name the import; they are not uses (whole-line and block comments)
  const code = rest.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^[ \t]*\/\/.*$/gm, "");
  const callee = namespace ? `${namespace}.createClient` : (alias ?? "createClient");
  const binding = namespace ?? alias ?? "createClient";
  const word = (re: string) => new RegExp(`(?<![\\w$.])${re}`, "g");
  const uses = code.match(word(`${binding.replace(/\$/g, "\\$")}\\b`)) ?? [];
  const calls = [...rest.matchAll(word(`${callee.replace(/[.$]/g, "\\$&")}\\s*\\(`))];
  if (calls.length !== 1 || uses.length !== 1) {
    return {
      status: "complex",
      reason: calls.length === 1
        ? `${binding} is used for more than createClient`
        : `${calls.length} createClient calls (setup patches a single one)`,
    };
  }
  const call = calls[0];
  if (call.index! < at) return { status: "complex", reason: "createClient before its import" };
  const open = call.index! + call[0].length - 1;
  const parsed = callArguments(rest, open);
  if (!parsed || parsed.args.length < 1 || parsed.args.length > 2) {
    return { status: "complex", reason: "createClient's arguments are not (repository, options)" };
  }
  let [repo, options] = parsed.args;
  if (/^["'`]https?:/.test(repo)) {
    const m = ENDPOINT_RE.exec(repo);
    if (!m) return { status: "complex", reason: `an endpoint that is not a repository: ${repo}` };
    repo = `${m[1]}${m[2]}${m[1]}`;
  }
  if (options !== undefined && !/^(\{[\s\S]*\}|[A-Za-z_$][\w$.]*)$/.test(options)) {
    return { status: "complex", reason: "createClient's options are not an object or a name" };
  }
  const lineStart = rest.lastIndexOf("\n", call.index!) + 1;
  const indent = /^[ \t]*/.exec(rest.slice(lineStart))![0];
  const patched = rest.slice(0, call.index!) +
    `createCachelyPrismicClient(${cachelyOptions(repo, options, indent)})` +
    rest.slice(parsed.close + 1);
  const head = `${PATCH_MARK}: through Cachely when CACHELY_PROXY_URL is set, ` +
    `straight to Prismic when it is not.\n` +
    `import { createCachelyPrismicClient } from ${quote}@cachely/sdk/prismic${quote};\n`;
  // The new import goes where the old one was, after anything above it (comments, imports).
  return { status: "patched", text: rest.slice(0, at) + head + patched.slice(at) };
}

/** What to do by hand with a client setup left alone (printed by `cachely setup`). */
export function prismicClientInstructions(file: string, reason: string): string {
  return `${file} was left alone (${reason}). To send its requests through Cachely, replace
  createClient(repositoryName, options)            from "@prismicio/client"
with
  createCachelyPrismicClient({ repositoryName, ...options })   from "@cachely/sdk/prismic"
(or use the generated composables/useCachelyPrismicClient.ts). Without CACHELY_PROXY_URL it
still talks to Prismic directly with your accessToken.`;
}
