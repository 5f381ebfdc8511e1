/**
 * The content-type allow-list of asset origins (docs/providers.md).
 * Anything else an asset origin answers is 403 at the edge and never cached:
 * the tenant host is the customer's own domain, so an HTML page or a script from
 * a CMS upload must not be served from it. Pure; compiled once per snapshot.
 */

/**
 * The safe list: images, pdf, video, audio and fonts. The dashboard preselects it for a
 * new tenant; a snapshot whose list is null (built before `allowedTypes` unset meant every
 * type) is read with it.
 */
export const DEFAULT_ALLOWED_TYPES: readonly string[] = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/avif",
  "image/gif",
  "image/svg+xml",
  "application/pdf",
  "video/mp4",
  "video/webm",
  "video/quicktime",
  "video/x-m4v",
  "audio",
  "font",
  "application/font-woff",
  "application/x-font-ttf",
  "application/x-font-otf",
  "application/vnd.ms-fontobject",
];

/** A compiled allow-list: true when a Content-Type header value is allowed. */
export type TypeAllowList = (contentType: string | null) => boolean;

/** The bare `type/subtype` of a Content-Type value, lower case ("" when absent). */
export function mediaTypeOf(contentType: string | null): string {
  if (!contentType) return "";
  const semi = contentType.indexOf(";");
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/** The stored list that serves every type: what `allowedTypes` unset means. */
export const EVERY_TYPE: readonly string[] = ["*/*"];

const allowAll: TypeAllowList = () => true;

/**
 * Compiles a list of MIME types (`image/png`) and families (`image`, `image/*`); `*` or
 * `*` + `/*` allows every type, even an answer without one. Otherwise a response without
 * a Content-Type is not allowed (it would be sniffed).
 */
export function compileTypeAllowList(list: readonly string[] | null | undefined): TypeAllowList {
  if (list?.some((t) => t === "*" || t === "*/*")) return allowAll;
  const exact = new Set<string>();
  const families = new Set<string>();
  for (const raw of list ?? DEFAULT_ALLOWED_TYPES) {
    const t = raw.trim().toLowerCase();
    if (t.endsWith("/*")) families.add(t.slice(0, -2));
    else if (!t.includes("/")) families.add(t);
    else exact.add(t);
  }
  return (contentType) => {
    const mt = mediaTypeOf(contentType);
    if (mt === "") return false;
    if (exact.has(mt)) return true;
    const slash = mt.indexOf("/");
    return slash > 0 && families.has(mt.slice(0, slash));
  };
}

/** The type a file extension stands for, where it is unambiguous (checked before any fetch). */
const TYPE_BY_EXT: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
  gif: "image/gif",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  m4v: "video/x-m4v",
  html: "text/html",
  htm: "text/html",
  xhtml: "application/xhtml+xml",
  js: "text/javascript",
  mjs: "text/javascript",
  css: "text/css",
  json: "application/json",
  xml: "application/xml",
  txt: "text/plain",
  php: "application/x-httpd-php",
  exe: "application/octet-stream",
  dll: "application/octet-stream",
  sh: "application/x-sh",
  zip: "application/zip",
  wasm: "application/wasm",
  swf: "application/x-shockwave-flash",
};

/**
 * False when the path's extension names a type the list refuses: such a request
 * is answered 403 before any upstream fetch. Unknown extensions (and none) are
 * decided by the upstream's Content-Type.
 */
export function extensionAllowed(allowed: TypeAllowList, path: string): boolean {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  if (dot <= slash) return true;
  const type = TYPE_BY_EXT[path.slice(dot + 1).toLowerCase()];
  return type === undefined || allowed(type);
}

/**
 * SVG may carry scripts; served from the customer's domain it must not run them.
 * The sandbox also stops forms, plugins and top navigation.
 */
export const SVG_CSP = "default-src 'none'; img-src data: https:; style-src 'unsafe-inline'; " +
  "font-src data: https:; script-src 'none'; sandbox";
