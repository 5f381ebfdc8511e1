/**
 * GET /admin/usage: is usage flowing (GET /api/admin/usage-diagnostic), and the sampled
 * request stream of every tenant, newest first (GET /api/admin/usage-stream), paged by the
 * same keyset cursor as the API.
 */
import type { AdminCtx } from "./shell.tsx";
import { usageDiagnostic } from "../../../lib/admin/platform/diagnostic.ts";
import { usageStream } from "../../../lib/admin/platform/usage_stream.ts";
import { badRequest } from "../../../lib/errors.ts";
import { Badge, Bytes, Empty, TableWrap, Time } from "../../../components/ui.tsx";
import { Rows } from "../../../components/admin/Rows.tsx";

const PAGE = 50;

function cursorParam(a: AdminCtx): number | undefined {
  const raw = a.c.req.query("cursor") || undefined;
  if (raw !== undefined && !/^[1-9]\d{0,15}$/.test(raw)) {
    throw badRequest("Invalid cursor: must be a positive integer");
  }
  return raw ? Number(raw) : undefined;
}

const statusTone = (n: number) => n >= 500 ? "error" : n >= 400 ? "warn" : "ok";

type Diagnostic = Awaited<ReturnType<typeof usageDiagnostic>>;
type Stream = Awaited<ReturnType<typeof usageStream>>;

/** KV and the last flush as badges; the database's and this instance's aggregator's figures. */
function UsageFlowing({ d }: { d: Diagnostic }) {
  const agg = d.aggregator;
  return (
    <section class="card">
      <h2>Is usage flowing?</h2>
      <p>
        {d.kv.reachable
          ? <Badge tone="ok">KV reachable</Badge>
          : <Badge tone="error">KV unreachable: {d.kv.error ?? "unknown error"}</Badge>} {!agg
          ? <Badge tone="warn">no usage aggregator on this instance</Badge>
          : agg.lastError
          ? <Badge tone="error">last flush failed: {agg.lastError}</Badge>
          : agg.lastFlushAt
          ? <Badge tone="ok">last flush succeeded</Badge>
          : <Badge tone="neutral">no flush yet</Badge>}
      </p>
      <div class="grid2">
        <div>
          <h3>Database</h3>
          <Rows
            rows={[
              ["Kind", d.database.kind],
              ["Migrations applied", d.database.migrations],
              ["Latest migration", d.database.latestMigration],
              ["Daily usage rows", d.usageDaily.rows],
              ["First day", d.usageDaily.firstDay],
              ["Last day", d.usageDaily.lastDay],
              ["Request log rows", d.requestLogs.rows],
              ["Oldest request log", d.requestLogs.oldestAt],
              ["Newest request log", d.requestLogs.newestAt],
            ]}
          />
        </div>
        <div>
          <h3>Aggregator (this instance)</h3>
          {!agg ? <p class="muted">Not running here.</p> : (
            <Rows
              rows={[
                ["Last flush", agg.lastFlushAt],
                ["Flushes", agg.flushes],
                ["Flush errors", agg.flushErrors],
                ["Pending buckets", agg.pendingBuckets],
                ["Pending request logs", agg.pendingLogs],
                ["Dropped (overflow)", agg.droppedOnOverflow],
              ]}
            />
          )}
          <p class="muted">
            All counters: <a href="/admin/platform">Platform</a>. Checked{" "}
            <Time at={d.generatedAt} />.
          </p>
        </div>
      </div>
    </section>
  );
}

/** Sampled request logs of every tenant, newest first, paged by cursor. */
function RequestStream({ stream, cursor }: { stream: Stream; cursor: number | undefined }) {
  return (
    <section class="card">
      <h2>Request stream</h2>
      <p class="muted">
        Sampled request logs of every tenant, newest first (the share kept is{" "}
        <code>REQUEST_LOG_SAMPLE_RATE</code>).
      </p>
      {stream.items.length === 0
        ? (
          <Empty title={cursor ? "No older requests" : "No request logs yet"}>
            {cursor
              ? <a href="/admin/usage">Back to the newest</a>
              : "Requests appear here once a tenant's proxy serves traffic and the aggregator has flushed."}
          </Empty>
        )
        : (
          <TableWrap label="Request stream">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Tenant</th>
                <th scope="col">Request</th>
                <th scope="col">Status</th>
                <th scope="col">Cache</th>
                <th scope="col" class="num">Size</th>
                <th scope="col" class="num">ms</th>
              </tr>
            </thead>
            <tbody>
              {stream.items.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Time at={r.ts} />
                  </td>
                  <td>
                    <a href={`/admin/tenants/${encodeURIComponent(r.tenant)}`}>{r.tenant}</a>
                  </td>
                  <td>
                    <code class="wrap">{r.method} {r.path}</code>{" "}
                    {r.kind ? <span class="muted">({r.kind})</span> : null}
                  </td>
                  <td>
                    <Badge tone={statusTone(r.status)}>{r.status}</Badge>
                  </td>
                  <td>{r.cache ?? "\u2014"}</td>
                  <td class="num">
                    <Bytes n={r.bytes} />
                  </td>
                  <td class="num">{r.durationMs ?? "\u2014"}</td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      {(stream.nextCursor !== null || cursor) && (
        <p class="actions">
          {cursor && <a href="/admin/usage">Newest</a>}
          {stream.nextCursor !== null && (
            <a href={`/admin/usage?cursor=${stream.nextCursor}`}>Older requests</a>
          )}
        </p>
      )}
    </section>
  );
}

export async function adminUsagePage(a: AdminCtx) {
  const cursor = cursorParam(a);
  const [d, stream] = await Promise.all([
    usageDiagnostic(a.s, a.c.get("instance").usageAggregator),
    usageStream(a.s, { limit: PAGE, cursor }),
  ]);
  return (
    <>
      <UsageFlowing d={d} />
      <RequestStream stream={stream} cursor={cursor} />
    </>
  );
}
