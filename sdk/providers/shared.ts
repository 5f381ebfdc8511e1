/**
 * Helpers several provider kinds use: hostname and origin parsing, file classes by extension,
 * the image host defaults. Dependency-free, like every file of sdk/providers/.
 *
 * @module
 */
import type { ProviderRoutes } from "./types.ts";

export const HOSTNAME_RE =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** True for a hostname such as `www.example.com` (lower case, at least one dot). */
export function isHostname(value: string): boolean {
  return HOSTNAME_RE.test(value);
}

/**
 * `http(s)://host[:port][/base]`, no query, fragment or credentials; else null. http only
 * where the server allows private upstreams (ALLOW_PRIVATE_UPSTREAMS; a self-hoster's MinIO).
 */
export function parseOrigin(
  value: string,
): { scheme: "http" | "https"; host: string; base: string } | null {
  const m = /^(https?):\/\/([a-z0-9.-]+(?::\d{1,5})?)(\/[^?#\s]*)?$/i.exec(value.trim());
  if (!m) return null;
  const host = m[2].toLowerCase();
  const base = (m[3] ?? "").replace(/\/+$/, "");
  if (base.split("/").some((s, i) => i > 0 && (s === "" || s === "." || s === ".."))) return null;
  if (/%2f|%5c|\\/i.test(base)) return null;
  return { scheme: m[1].toLowerCase() as "http" | "https", host, base };
}

/** `https://host[:port][/base]`, no query, fragment or credentials; else null. */
export function parseHttpsOrigin(value: string): { host: string; base: string } | null {
  const o = parseOrigin(value);
  return o?.scheme === "https" ? o : null;
}

/** The origin URL of a parsed origin. */
export const originUrl = (o: { scheme: string; host: string; base: string }) =>
  `${o.scheme}://${o.host}${o.base}`;

/** The lower-case `host[:port]` of an origin URL. */
export function hostOf(origin: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(origin);
  if (!m) throw new TypeError(`Invalid origin: ${origin}`);
  return m[1].toLowerCase();
}

/** Segments of a path after the leading `/` (`/a/b` -> ["a", "b"]). */
export function segments(path: string): string[] {
  return path.slice(1).split("/");
}

/** Routes nothing: a kind without its identifier. */
export const NO_ROUTES: ProviderRoutes = { route: () => null };

export const DEFAULT_IMAGE_HOST = "https://res.cloudinary.com";
export const DEFAULT_IMAGE_API = "https://api.cloudinary.com";

/** What a file is, by extension: decides the origin (docs/providers.md). */
export type FileClass = "image" | "video" | "audio" | "document" | "font" | "other";

const CLASS_BY_EXT: Record<string, FileClass> = {};
for (const e of "jpg jpeg png webp avif gif svg bmp ico tif tiff heic heif jxl".split(" ")) {
  CLASS_BY_EXT[e] = "image";
}
for (const e of "mp4 webm mov m4v ogv mkv m3u8 mpd".split(" ")) CLASS_BY_EXT[e] = "video";
for (const e of "mp3 wav ogg oga m4a aac flac opus weba".split(" ")) CLASS_BY_EXT[e] = "audio";
for (const e of "woff woff2 ttf otf eot".split(" ")) CLASS_BY_EXT[e] = "font";
CLASS_BY_EXT.pdf = "document";

/** The class of a path by its last extension (`/a/b/cat.JPG` -> image). */
export function fileClassOf(path: string): FileClass {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  if (dot <= slash) return "other";
  return CLASS_BY_EXT[path.slice(dot + 1).toLowerCase()] ?? "other";
}

/** A non-empty string field of a JSON object body (at most 200 characters), else null. */
export function bodyField(body: unknown, name: string): string | null {
  if (body && typeof body === "object" && !Array.isArray(body)) {
    const v = (body as Record<string, unknown>)[name];
    if (typeof v === "string" && v.length > 0) return v.slice(0, 200);
  }
  return null;
}
