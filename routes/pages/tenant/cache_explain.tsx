/**
 * The Cache page's "Why isn't this URL cached?" section: a GET form (`?url=&method=`) and the
 * answer of lib/cache/explain.ts rendered on the server, for every member (viewer+). The
 * answer's rows carry data attributes (kind, eligibility, key, stored copy, last origin answer
 * and its reason, last purge) for scripts and tests.
 */
import type { TenantPageCtx } from "./shell.tsx";
import { Badge, Time } from "../../../components/ui.tsx";
import { type ExplainResult, explainUrl } from "../../../lib/cache/explain.ts";
import { ApiError } from "../../../lib/errors.ts";

const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE"];

/** The explanation of the page's `?url=`, an error message, or null when none was asked. */
async function answerOf(
  t: TenantPageCtx,
  url: string | undefined,
  method: string | undefined,
): Promise<{ ok: ExplainResult } | { error: string } | null> {
  if (url === undefined || url.trim() === "") return null;
  try {
    return {
      ok: await explainUrl(t.s, t.c.get("instance").edgeExplain, t.tenant, {
        url: url.slice(0, 8192),
        method,
      }),
    };
  } catch (e) {
    if (e instanceof ApiError) return { error: e.message }; // 400 naming the field
    throw e;
  }
}

function Answer({ r }: { r: ExplainResult }) {
  const last = r.lastOriginAnswer;
  return (
    <dl class="facts" data-explain-kind={r.kind} data-explain-eligible={String(r.eligible)}>
      <dt>Served by</dt>
      <dd>
        the {r.kind === "api" ? "API" : r.kind} proxy, {r.cacheMode} cache mode
      </dd>
      <dt>Cacheable request</dt>
      <dd data-explain-blockers="">
        {r.eligible ? <Badge tone="ok">yes</Badge> : <Badge tone="warn">no</Badge>}
        {r.blockers.length > 0 && (
          <ul>
            {r.blockers.map((b) => <li key={b.code} data-blocker={b.code}>{b.message}</li>)}
          </ul>
        )}
      </dd>
      <dt>Cache key</dt>
      <dd data-explain-key="">{r.key === null ? "none" : <code>{r.key}</code>}</dd>
      {r.varyOn && (
        <>
          <dt>Varies on</dt>
          <dd data-explain-vary={r.varyOn}>{r.varyOn}</dd>
        </>
      )}
      <dt>Stored copy</dt>
      {r.stored === null ? <dd data-explain-stored="none">none on this instance</dd> : (
        <dd
          data-explain-stored={r.stored.purged ? "purged" : r.stored.fresh ? "fresh" : "expired"}
        >
          status {r.stored.status}, stored <Time at={r.stored.storedAt} />, TTL{" "}
          {r.stored.ttlSeconds} s, {r.stored.remainingSeconds >= 0
            ? `${r.stored.remainingSeconds} s left`
            : `expired ${-r.stored.remainingSeconds} s ago`}
          {r.stored.purged && ", purged since (not served)"}
        </dd>
      )}
      <dt>Last origin answer</dt>
      {last === null ? <dd data-explain-origin-status="none">none seen by this instance</dd> : (
        <dd
          data-explain-origin-status={last.originStatus === null
            ? "none"
            : String(last.originStatus)}
          data-explain-reason={last.notStoredBecause ?? (last.stored ? "stored" : "")}
        >
          <Time at={last.at} />: {last.originStatus ?? "no answer"}, {last.stored
            ? `stored for ${last.ttlSeconds ?? 0} s`
            : `not stored: ${last.notStoredBecause ?? "unknown"}`} <code>{last.cacheStatus}</code>
        </dd>
      )}
      <dt>Last purge that matched</dt>
      {r.lastPurge === null
        ? <dd data-explain-purge="none">none</dd>
        : (
          <dd data-explain-purge={r.lastPurge.by}>
            by {r.lastPurge.by} <code>{r.lastPurge.entry}</code>, <Time at={r.lastPurge.at} />
          </dd>
        )}
    </dl>
  );
}

/** The section, with the answer when the page was asked for one (awaited: SSR is synchronous). */
export async function whyNotCached(t: TenantPageCtx) {
  const url = t.c.req.query("url");
  const method = t.c.req.query("method") || undefined;
  const answer = await answerOf(t, url, method);
  return (
    <section class="card" id="why" data-testid="cache-explain">
      <h2>Why isn't this URL cached?</h2>
      <p class="muted">
        What this instance's edge knows about a URL or path on this project's hosts: its cache key,
        whether such a request may be cached, the copy it holds, why the origin's last answer was
        not stored, and the last purge that matched. The URL is not fetched.
      </p>
      <form
        method="get"
        action={`${t.href}/cache#why`}
        role="search"
        class="row picker"
        aria-label="Why isn't this URL cached?"
      >
        <div class="field">
          <label for="explain-url">URL or path</label>
          <input
            id="explain-url"
            name="url"
            value={url ?? ""}
            placeholder={`/~api/entries or https://\u2026/hero.jpg`}
            size={48}
            required
          />
        </div>
        <div class="field">
          <label for="explain-method">Method</label>
          <select id="explain-method" name="method">
            {METHODS.map((m) => (
              <option key={m} value={m} selected={m === (method ?? "GET")}>{m}</option>
            ))}
          </select>
        </div>
        <button type="submit">Explain</button>
      </form>
      {answer !== null && "error" in answer && (
        <p class="notice error" role="alert">{answer.error}</p>
      )}
      {answer !== null && "ok" in answer && <Answer r={answer.ok} />}
    </section>
  );
}
