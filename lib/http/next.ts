/**
 * Where to go after logging in or signing up (`?next=`): a path on our own origin only.
 * The value is resolved with the URL parser against PUBLIC_URL, and the result decides:
 * it must keep our origin and its path must not start with `//` or `/\` (a browser
 * reads `Location: //evil.example` as another host). Checking the raw text is not
 * enough: the parser collapses dot segments (`/.//evil`, `/%2e%2e//evil`, `/a/..//evil`
 * all become `//evil`), strips tabs and newlines and turns `\` into `/`. Control
 * characters are refused outright. Anything refused: the dashboard.
 */
export const DEFAULT_NEXT = "/dashboard";

// C0 controls, DEL and C1 controls: all are dropped or rewritten by the WHATWG URL parser.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A local path (with query and fragment) for a redirect, or DEFAULT_NEXT. */
export function safeNext(raw: string | undefined, publicUrl: string): string {
  if (!raw || raw.length > 2048 || CONTROL.test(raw) || !raw.startsWith("/")) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(raw, publicUrl);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== new URL(publicUrl).origin) return DEFAULT_NEXT;
  const path = url.pathname;
  if (path.startsWith("//") || path.startsWith("/\\")) return DEFAULT_NEXT;
  return `${path}${url.search}${url.hash}`;
}
