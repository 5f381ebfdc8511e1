/**
 * Splits a page into the places a URL can sit, each tagged with its context, so the
 * website check can tell a rendered resource (img/link attribute, CSS url(), Link
 * header) from a mention in serialized data, an inline script or a CSP. A tolerant
 * scanner, not a full HTML parser: pages are read as they are, broken or not.
 */

export type FragmentContext =
  | "img"
  | "link"
  | "css_url"
  | "link_header"
  | "serialized_data"
  | "inline_script"
  | "csp"
  | "attribute"
  | "text";

/** Contexts in which a URL is fetched when the page renders (SPEC: "rendered resource"). */
export const RESOURCE_CONTEXTS: ReadonlySet<FragmentContext> = new Set([
  "img",
  "link",
  "css_url",
  "link_header",
]);

/** `where` names the spot for people, e.g. `<img srcset>` or `Link header`. */
export type Fragment = { context: FragmentContext; where: string; value: string };

const MEDIA_TAGS = new Set(["img", "source", "picture", "video", "audio", "image", "track"]);
const RESOURCE_ATTRS = new Set([
  "src",
  "srcset",
  "href",
  "poster",
  "data-src",
  "data-srcset",
  "imagesrcset",
  "xlink:href",
]);
const JSON_SCRIPT_IDS = new Set(["__next_data__", "__nuxt_data__", "__remix_context__"]);

const COMMENT_RE = /<!--[\s\S]*?-->/g;
const SCRIPT_RE = /<script\b([^>]*)>([\s\S]*?)(?:<\/script\s*>|$)/gi;
const STYLE_RE = /<style\b[^>]*>([\s\S]*?)(?:<\/style\s*>|$)/gi;
const TAG_RE = /<([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTR_RE = /([^\s"'=<>\/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const CSS_URL_RE = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)/gi;

export function parseAttributes(raw: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of raw.matchAll(ATTR_RE)) {
    const name = m[1].toLowerCase();
    if (!attrs.has(name)) attrs.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ""));
  }
  return attrs;
}

/** The few entities that matter inside URLs. */
function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(?:amp|#38|#x26);/gi, "&").replace(/&(?:quot|#34);/gi, '"')
    .replace(/&(?:#47|#x2f);/gi, "/").replace(/&(?:#58|#x3a);/gi, ":");
}

function cssUrls(css: string, where: string, out: Fragment[]): string {
  return css.replace(CSS_URL_RE, (_all, a, b, c) => {
    out.push({ context: "css_url", where, value: (a ?? b ?? c ?? "").trim() });
    return "";
  });
}

export function pageFragments(html: string, headers: Headers): Fragment[] {
  const out: Fragment[] = [];
  const link = headers.get("link");
  if (link) out.push({ context: "link_header", where: "Link header", value: link });
  for (const h of ["content-security-policy", "content-security-policy-report-only"]) {
    const v = headers.get(h);
    if (v) out.push({ context: "csp", where: `${h} header`, value: v });
  }
  let rest = html.replace(COMMENT_RE, "");
  rest = rest.replace(SCRIPT_RE, (_all, rawAttrs: string, body: string) => {
    const attrs = parseAttributes(rawAttrs);
    const src = attrs.get("src");
    if (src) out.push({ context: "attribute", where: "<script src>", value: src });
    const type = (attrs.get("type") ?? "").toLowerCase();
    const id = (attrs.get("id") ?? "").toLowerCase();
    if (body.trim() !== "") {
      const data = type.includes("json") || JSON_SCRIPT_IDS.has(id);
      out.push({
        context: data ? "serialized_data" : "inline_script",
        where: data ? `<script${id ? ` id="${id}"` : ""} type="${type || "json"}">` : "<script>",
        value: body,
      });
    }
    return " ";
  });
  rest = rest.replace(STYLE_RE, (_all, css: string) => {
    const left = cssUrls(css, "<style> url()", out);
    if (left.trim() !== "") out.push({ context: "text", where: "<style>", value: left });
    return " ";
  });
  const text = rest.replace(TAG_RE, (_all, tagName: string, rawAttrs: string) => {
    tagFragments(tagName.toLowerCase(), parseAttributes(rawAttrs), out);
    return " ";
  });
  if (text.trim() !== "") out.push({ context: "text", where: "page text", value: text });
  return out;
}

function tagFragments(tag: string, attrs: Map<string, string>, out: Fragment[]): void {
  const resourceContext = MEDIA_TAGS.has(tag) ? "img" : tag === "link" ? "link" : null;
  const httpEquiv = (attrs.get("http-equiv") ?? "").toLowerCase();
  for (const [name, value] of attrs) {
    if (value === "") continue;
    const where = `<${tag} ${name}>`;
    if (resourceContext && RESOURCE_ATTRS.has(name)) {
      out.push({ context: resourceContext, where, value });
    } else if (name === "style") {
      const left = cssUrls(value, `${where} url()`, out);
      if (left.trim() !== "") out.push({ context: "attribute", where, value: left });
    } else if (tag === "meta" && name === "content" && httpEquiv.startsWith("content-security")) {
      out.push({ context: "csp", where: "<meta http-equiv CSP>", value });
    } else {
      out.push({ context: "attribute", where, value });
    }
  }
}
