/**
 * Where to go after logging in or signing up (`?next=`): a path on our own origin only.
 * The raw value is refused when it holds any control character, because the URL parser
 * strips tabs and newlines (`/\t/evil.example` would become `//evil.example`); the
 * value resolved against PUBLIC_URL must keep our origin. Anything else: the dashboard.
 */
export const DEFAULT_NEXT = "/dashboard";

// C0 controls, DEL and C1 controls: all are dropped or rewritten by the WHATWG URL parser.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A local path (with query and fragment) for a redirect, or DEFAULT_NEXT. */
export function safeNext(raw: string | undefined, publicUrl: string): string {
  if (!raw || raw.length > 2048 || CONTROL.test(raw) || !raw.startsWith("/")) return DEFAULT_NEXT;
  if (raw.startsWith("//") || raw.includes("\\")) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(raw, publicUrl);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== new URL(publicUrl).origin) return DEFAULT_NEXT;
  return `${url.pathname}${url.search}${url.hash}`;
}
