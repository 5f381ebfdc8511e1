/** Browser-side JSON API calls for islands: same-origin cookie, JSON in and out, errors as text. */
export type ApiResult = { ok: boolean; status: number; body: unknown; message: string };

/**
 * The first non-empty value in `body` among `paths` (dotted, e.g. `analysis.verdict`), as
 * text; "" when none. Lets one island show the useful line of different answers.
 */
export function pick(body: unknown, paths: string | string[] | undefined): string {
  for (const path of typeof paths === "string" ? [paths] : paths ?? []) {
    let v: unknown = body;
    for (const k of path.split(".")) v = (v as Record<string, unknown> | null)?.[k];
    if (v !== undefined && v !== null && v !== "") return String(v);
  }
  return "";
}

/**
 * Where a form goes after success: `{name}` in the template is filled from the server's
 * JSON answer (URL-encoded), never from what was typed into the form, so no form field
 * (a password, say) can end up in a redirect. A missing value leaves the segment empty.
 */
export function redirectTarget(template: string, answer: unknown): string {
  return template.replace(/\{(\w+)\}/g, (_, k) => encodeURIComponent(pick(answer, k)));
}

export async function callApi(method: string, url: string, body?: unknown): Promise<ApiResult> {
  try {
    const res = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // The session expired mid-action: log in again and come back to this page.
    if (res.status === 401 && !url.startsWith("/api/auth/") && typeof location !== "undefined") {
      location.href = `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch { /* not JSON */ }
    const err = (parsed as { error?: { message?: string } } | null)?.error;
    return {
      ok: res.ok,
      status: res.status,
      body: parsed,
      message: res.ok ? "Done" : err?.message ?? `Request failed (${res.status})`,
    };
  } catch (e) {
    return { ok: false, status: 0, body: null, message: `Network error: ${(e as Error).message}` };
  }
}
