/**
 * The loop every instance runs: every `intervalMs` it projects the tenants whose KV
 * snapshot is behind Postgres, and reads KV's installation marker and high-water mark against
 * the database's generation sequence (two small reads and one tiny query). The full reconcile
 * pass (lib/edge_config/reconcile.ts), which compares every tenant's generation in KV with the
 * database and re-projects each one behind at once, runs then when the marker is gone (KV
 * wiped or replaced) or names another database, when the mark is below the sequence (KV lost
 * writes: an older copy of the file restored, whose marker is still right), and right after
 * KV was reopened (`checkKvNow`). It also runs at boot and every RECONCILE_EVERY_MS, to find
 * what KV lost or holds without a database row. A failure (database or KV down) is logged once
 * per streak and retried on the next tick.
 */
import type { Services } from "../services.ts";
import { kvKeys } from "../kv/keys.ts";
import { projectSlug, slugsBehind } from "./projector.ts";
import { coverHighWater, highWater, kvState, reconcileKv, sequenceValue } from "./reconcile.ts";
import { installationId } from "./installation.ts";
import { isDatabaseError } from "../db/outage_guard.ts";

/** A full reconcile pass runs at boot and again this long after the previous one ended. */
export const RECONCILE_EVERY_MS = 10 * 60_000;

/** The projector loop's state for GET /metrics (lib/metrics/prometheus.ts). */
export type ProjectorStatus = {
  /** Tenants whose KV snapshot was behind Postgres at the start of the last tick. */
  behind: number;
  /** When the last tick ended without error (ms), null before the first. */
  lastSuccessAt: number | null;
  /** Ticks that failed (database or KV), since start. */
  errors: number;
  /** Of those, the ones whose error was not the database's (KV writes and reads). */
  kvErrors: number;
};

export function startProjector(
  s: Services,
  intervalMs: number,
  reconcileEveryMs = RECONCILE_EVERY_MS,
): { stop(): Promise<void>; status(): ProjectorStatus; checkKvNow(): void } {
  let stopped = false;
  let failing = false;
  const status: ProjectorStatus = { behind: 0, lastSuccessAt: null, errors: 0, kvErrors: 0 };
  let running: Promise<void> | null = null;
  // The first tick runs a pass; a reopened KV file asks for one on the next tick.
  const due = { nextPass: 0, reopened: false };
  const reconcile = () => reconcileWhenDue(s, due, reconcileEveryMs);
  const tick = async () => {
    try {
      const behind = await slugsBehind(s);
      status.behind = behind.length;
      for (const slug of behind) {
        if (stopped) return;
        await projectSlug(s, slug);
      }
      if (!stopped) await reconcile();
      if (failing) s.log.info("edge projector recovered");
      failing = false;
      status.lastSuccessAt = s.clock.now();
    } catch (e) {
      status.errors++;
      if (!isDatabaseError(e)) status.kvErrors++;
      if (!failing) {
        s.log.warn("edge projector: will retry", {
          error: e instanceof Error ? e.message : String(e),
        });
      }
      failing = true;
    }
  };
  const run = () => {
    if (!running && !stopped) running = tick().finally(() => running = null);
  };
  const timer = setInterval(run, intervalMs);
  Deno.unrefTimer(timer);
  // Boot: reconcile soon, not one interval later (an instance started after a KV loss).
  const first = setTimeout(run, Math.min(intervalMs, 500));
  Deno.unrefTimer(first);
  return {
    status: () => ({ ...status }),
    checkKvNow() {
      due.reopened = true;
      run();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}

/**
 * The reconcile pass when it is due (module comment): KV's marker gone or foreign, its
 * high-water mark below the database's sequence, the file reopened, or the periodic pass.
 */
async function reconcileWhenDue(
  s: Services,
  due: { nextPass: number; reopened: boolean },
  reconcileEveryMs: number,
): Promise<void> {
  const installation = await installationId(s.dbHandle);
  const marker = (await s.kv.get<{ id: string }>(kvKeys.installation())).value;
  const lost = marker?.id !== installation;
  const sequence = await sequenceValue(s);
  const behind = !lost && await highWater(s.kv) < sequence;
  const reopened = due.reopened;
  if (!lost && !behind && !reopened && s.clock.now() < due.nextPass) return;
  due.reopened = false;
  const report = await reconcileKv(
    s,
    installation,
    lost ? await kvState(s, installation) : "current",
  );
  if (!lost) await coverHighWater(s.kv, sequence);
  if (lost || report.projected > 0 || report.routesDeleted > 0) {
    const cause = lost
      ? "marker"
      : behind
      ? "high water below sequence"
      : reopened
      ? "reopened"
      : "periodic";
    s.log.info("edge projector: reconciled KV with the database", { ...report, cause });
  }
  due.nextPass = s.clock.now() + reconcileEveryMs;
}
