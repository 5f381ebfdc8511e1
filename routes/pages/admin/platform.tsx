/**
 * GET /admin/platform: the usage aggregator's counters, the cost model, and the platform
 * actions (each asks for confirmation before anything is sent).
 */
import { currentPeriod } from "../../../lib/usage/query.ts";
import type { AdminCtx } from "./shell.tsx";
import { platformCost } from "../../../lib/admin/platform/cost_model.ts";
import { REQUEST_LOG_RETENTION_DAYS } from "../../../lib/usage/aggregator.ts";
import { Badge, Empty, TableWrap, Time } from "../../../components/ui.tsx";
import { formatBytes, formatCount, formatUsd as usd } from "../../../lib/dashboard/format.ts";
import { ApiForm, Checkbox, Field } from "../../../components/ApiForm.tsx";
import { periodParam } from "./overview.tsx";
import { Rows } from "../../../components/admin/Rows.tsx";
import { PeriodPicker } from "../../../components/admin/PeriodPicker.tsx";

/** The usage aggregator's counters and its threshold gate, on this instance. */
function AggregatorSection({ a }: { a: AdminCtx }) {
  const agg = a.c.get("instance").usageAggregator;
  const status = agg.status();
  const gate = agg.gate.status();
  return (
    <section class="card">
      <h2>Usage aggregator (this instance)</h2>
      {!status || !gate ? <Empty title="The usage aggregator is not running here" /> : (
        <>
          <p>
            {status.enabled
              ? <Badge tone="ok">enabled</Badge>
              : <Badge tone="warn">disabled</Badge>} {status.lastError
              ? <Badge tone="error">last flush failed: {status.lastError}</Badge>
              : null}
          </p>
          <Rows
            rows={[
              ["Flushes", status.flushes],
              ["Flush errors", status.flushErrors],
              ["Last flush", status.lastFlushAt],
              ["Last flush took (ms)", status.lastFlushDurationMs],
              ["Pending buckets", status.pendingBuckets],
              ["Pending request logs", status.pendingLogs],
              ["Enqueued deltas", status.enqueuedDeltas],
              ["Dropped (disabled)", status.droppedWhenDisabled],
              ["Dropped (overflow)", status.droppedOnOverflow],
              ["Sampled / skipped logs", `${status.sampledLogs} / ${status.skippedLogs}`],
              ["Flush interval (ms)", status.flushIntervalMs],
              ["Log sample rate", String(status.requestLogSampleRate)],
              ["Prunes", status.prunes],
              ["Last prune", status.lastPruneAt],
              ["Rows deleted by last prune", status.lastPruneRowsDeleted],
            ]}
          />
          <h3>Threshold gate</h3>
          <Rows
            rows={[
              ["Enabled", gate.enabled],
              ["Interval (ms)", gate.intervalMs],
              ["Allowed", gate.allowed],
              ["Skipped (throttled)", gate.skippedThrottled],
              ["Skipped (disabled)", gate.skippedDisabled],
              ["Tracked accounts", gate.trackedOrgs],
              ["Evicted entries", gate.evictedEntries],
            ]}
          />
        </>
      )}
    </section>
  );
}

/** The month's modeled cost, item by item. */
function CostSection(
  { a, period, cost }: {
    a: AdminCtx;
    period: string;
    cost: Awaited<ReturnType<typeof platformCost>>;
  },
) {
  return (
    <section class="card">
      <h2>Cost model</h2>
      <PeriodPicker
        action="/admin/platform"
        period={period}
        current={currentPeriod(a.s.clock.now())}
      />
      <p class="muted">
        Modeled from the month's usage with list unit prices ({cost.currency}); confidence{" "}
        {cost.costConfidence}. Computed <Time at={cost.fetchedAt} />, cached for 10 minutes.
      </p>
      <TableWrap label="Modeled cost">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Compute ({formatCount(cost.inputs.requests)} requests)</th>
            <td>{usd(cost.cost.workersCost)}</td>
          </tr>
          <tr>
            <th scope="row">
              Database ({formatCount(cost.inputs.usageDailyRows + cost.inputs.requestLogRows)}{" "}
              rows written)
            </th>
            <td>{usd(cost.cost.d1Cost)}</td>
          </tr>
          <tr>
            <th scope="row">
              KV ({formatCount(cost.inputs.kvReads)} reads, {formatCount(cost.inputs.kvWrites)}{" "}
              writes)
            </th>
            <td>{usd(cost.cost.kvCost)}</td>
          </tr>
          <tr>
            <th scope="row">Total</th>
            <td>
              <strong>{usd(cost.cost.totalCost)}</strong>
            </td>
          </tr>
        </tbody>
      </TableWrap>
      <p class="muted">
        Bandwidth in the month: {formatBytes(cost.inputs.bytes)} over {cost.inputs.tenants}{" "}
        tenant(s).
      </p>
    </section>
  );
}

/** The platform actions, each confirmed before anything is sent. */
function PlatformActions() {
  return (
    <section class="card">
      <h2>Platform actions</h2>
      <div class="actions-grid">
        <div>
          <h3>Apply database migrations</h3>
          <p class="muted">Runs any migration not yet applied. Safe to repeat.</p>
          <ApiForm
            api="/api/admin/d1-init"
            submit="Apply migrations"
            confirm="Apply pending database migrations now?"
            done="Migrations up to date ({total} applied in all)"
            label="Apply database migrations"
          />
        </div>
        <div>
          <h3>Prune request logs</h3>
          <ApiForm
            api="/api/admin/prune-logs"
            submit="Prune logs"
            confirm="Delete request logs older than the retention? This cannot be undone."
            done="Deleted {deleted} row(s)"
            danger
            label="Prune request logs"
          >
            <Field
              name="retentionDays:number"
              label="Keep the last (days)"
              type="number"
              min={1}
              max={3650}
              value={REQUEST_LOG_RETENTION_DAYS}
            />
          </ApiForm>
        </div>
        <div>
          <h3>Re-sync edge snapshots</h3>
          <p class="muted">Republishes every tenant's edge configuration to KV.</p>
          <ApiForm
            api="/api/admin/migrate-kv-to-d1"
            submit="Re-sync snapshots"
            confirm="Republish every tenant's edge configuration?"
            done="Synced {synced} of {tenants} tenant(s)"
            label="Re-sync edge snapshots"
          >
            <Checkbox name="dryRun" label="Dry run (count only)" />
          </ApiForm>
        </div>
        <div>
          <h3>Republish quota snapshots</h3>
          <p class="muted">Publishes every account's month usage and plan quota to the edge.</p>
          <ApiForm
            api="/api/admin/quota-snapshots/backfill"
            submit="Republish quotas"
            confirm="Republish the edge quota snapshot of every account?"
            done="Processed {processed} of {orgs} account(s)"
            label="Republish quota snapshots"
          />
        </div>
        <div>
          <h3>Backfill members</h3>
          <p class="muted">Seeds an owner row for tenants whose creator has none.</p>
          <ApiForm
            api="/api/admin/backfill-members"
            submit="Backfill members"
            confirm="Seed missing owner rows from tenant creators?"
            done="Seeded {seeded} member row(s)"
            label="Backfill members"
          />
        </div>
      </div>
    </section>
  );
}

export async function adminPlatformPage(a: AdminCtx) {
  const period = periodParam(a);
  const cost = await platformCost(a.s, period);
  return (
    <>
      <AggregatorSection a={a} />
      <CostSection a={a} period={period} cost={cost} />
      <PlatformActions />
    </>
  );
}
