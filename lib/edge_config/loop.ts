/**
 * The loop every instance runs: every `intervalMs` it projects the tenants whose KV
 * snapshot is behind Postgres, and reads KV's installation marker (one small read): when
 * it is gone (KV wiped or replaced) or names another database, the full reconcile pass
 * (lib/edge_config/reconcile.ts) runs at once. The pass also runs at boot and every
 * RECONCILE_EVERY_MS, to find what KV lost or holds without a database row. A failure
 * (database or KV down) is logged once per streak and retried on the next tick.
 */
import type { Services } from "../services.ts";
import { kvKeys } from "../kv/keys.ts";
import { projectSlug, slugsBehind } from "./projector.ts";
import { kvState, reconcileKv } from "./reconcile.ts";
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
): { stop(): Promise<void>; status(): ProjectorStatus } {
  let stopped = false;
  let failing = false;
  const status: ProjectorStatus = { behind: 0, lastSuccessAt: null, errors: 0, kvErrors: 0 };
  let running: Promise<void> | null = null;
  let nextPass = 0; // the first tick runs a pass
  const reconcile = async () => {
    const installation = await installationId(s.dbHandle);
    const marker = (await s.kv.get<{ id: string }>(kvKeys.installation())).value;
    const lost = marker?.id !== installation;
    if (!lost && s.clock.now() < nextPass) return;
    const report = await reconcileKv(
      s,
      installation,
      lost ? await kvState(s, installation) : "current",
    );
    if (lost || report.projected > 0 || report.routesDeleted > 0) {
      s.log.info("edge projector: reconciled KV with the database", report);
    }
    nextPass = s.clock.now() + reconcileEveryMs;
  };
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
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
