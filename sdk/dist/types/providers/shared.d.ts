/**
 * Helpers several provider kinds use: hostname and origin parsing, file classes by extension,
 * the image host defaults. Dependency-free, like every file of sdk/providers/.
 *
 * @module
 */
import type { ProviderRoutes } from "./types.js";
export declare const HOSTNAME_RE: RegExp;
/** True for a hostname such as `www.example.com` (lower case, at least one dot). */
export declare function isHostname(value: string): boolean;
/**
 * `http(s)://host[:port][/base]`, no query, fragment or credentials; else null. http only
 * where the server allows private upstreams (ALLOW_PRIVATE_UPSTREAMS; a self-hoster's MinIO).
 */
export declare function parseOrigin(value: string): {
    scheme: "http" | "https";
    host: string;
    base: string;
} | null;
/** `https://host[:port][/base]`, no query, fragment or credentials; else null. */
export declare function parseHttpsOrigin(value: string): {
    host: string;
    base: string;
} | null;
/** The origin URL of a parsed origin. */
export declare const originUrl: (o: {
    scheme: string;
    host: string;
    base: string;
}) => string;
/** The lower-case `host[:port]` of an origin URL. */
export declare function hostOf(origin: string): string;
/** Segments of a path after the leading `/` (`/a/b` -> ["a", "b"]). */
export declare function segments(path: string): string[];
/** Routes nothing: a kind without its identifier. */
export declare const NO_ROUTES: ProviderRoutes;
export declare const DEFAULT_IMAGE_HOST = "https://res.cloudinary.com";
export declare const DEFAULT_IMAGE_API = "https://api.cloudinary.com";
/** What a file is, by extension: decides the origin (docs/providers.md). */
export type FileClass = "image" | "video" | "audio" | "document" | "font" | "other";
/** The class of a path by its last extension (`/a/b/cat.JPG` -> image). */
export declare function fileClassOf(path: string): FileClass;
/** A non-empty string field of a JSON object body (at most 200 characters), else null. */
export declare function bodyField(body: unknown, name: string): string | null;
