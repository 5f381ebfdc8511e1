/**
 * Experiment assignment at the edge (SPEC "Public proxy behaviour"): match the
 * request's API path against the tenant's active experiments and pick a variant by a
 * weighted hash of client IP + user agent, salted with the experiment id, so a visitor
 * keeps their variant without cookies. Well-known bots get control and are not counted.
 *
 * Hot path: experiments are compiled once per snapshot object (memoised in a WeakMap,
 * so a new snapshot recompiles and an old one is collected), and an assignment hashes
 * the strings in place without building a concatenated key.
 */
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import { routeMatches } from "../lib/experiments/route.ts";
import { isBotUserAgent } from "../lib/experiments/bots.ts";
import { networkHash, visitorHash } from "../lib/experiments/visitor.ts";

export { visitorHash };

export type Assignment = {
  experimentId: number;
  variantId: number;
  variantKey: string;
  /** null for control */
  transformProfile: string | null;
  /** Well-known bots get control and are not counted as exposures. */
  countExposure: boolean;
  /** Counted visitors: who (the assignment hash) and from which network (guardrails). */
  visitor?: number;
  network?: number;
};

type CompiledVariant = { id: number; key: string; profile: string | null };
type Compiled = {
  id: number;
  idText: string;
  pattern: string;
  match: "prefix" | "exact";
  variants: CompiledVariant[];
  /** Running sums of weights; variant i owns hash buckets [cum[i-1], cum[i]). */
  cumulative: number[];
  total: number;
  /** Index of the first control variant (no profile), or -1. */
  control: number;
};

const compiledBySnapshot = new WeakMap<EdgeSnapshot, Compiled[]>();

function compile(snapshot: EdgeSnapshot): Compiled[] {
  let c = compiledBySnapshot.get(snapshot);
  if (c) return c;
  c = [];
  for (const e of snapshot.experiments ?? []) {
    const variants: CompiledVariant[] = [];
    const cumulative: number[] = [];
    let total = 0;
    let control = -1;
    for (const v of e.variants) {
      if (!(v.weight > 0)) continue;
      total += Math.floor(v.weight);
      cumulative.push(total);
      if (v.transformProfile === null && control < 0) control = variants.length;
      variants.push({ id: v.id, key: v.key, profile: v.transformProfile });
    }
    if (variants.length === 0) continue;
    c.push({
      id: e.id,
      idText: String(e.id),
      pattern: e.routePattern,
      match: e.routeMatch,
      variants,
      cumulative,
      total,
      control,
    });
  }
  compiledBySnapshot.set(snapshot, c);
  return c;
}

/**
 * `apiPath` is the path after `/~api` (e.g. `/entries`); a query, if any, is ignored.
 * Returns null when no active experiment matches, or when a bot hits an experiment
 * without a control variant (it then gets the plain response, uncounted).
 */
export function assignExperiment(
  snapshot: EdgeSnapshot,
  apiPath: string,
  clientIp: string,
  userAgent: string,
): Assignment | null {
  const experiments = compile(snapshot);
  if (experiments.length === 0) return null;
  const q = apiPath.indexOf("?");
  const path = q < 0 ? apiPath : apiPath.slice(0, q);
  for (const e of experiments) {
    if (!routeMatches(e.pattern, e.match, path)) continue;
    if (isBotUserAgent(userAgent)) {
      if (e.control < 0) return null;
      return toAssignment(e, e.control, false);
    }
    const visitor = visitorHash(e.idText, clientIp, userAgent);
    return toAssignment(e, pickVariant(e, visitor), true, visitor, networkHash(clientIp));
  }
  return null;
}

function toAssignment(
  e: Compiled,
  i: number,
  countExposure: boolean,
  visitor?: number,
  network?: number,
): Assignment {
  const v = e.variants[i];
  // One object shape whether counted or not (the hit path stays monomorphic).
  return {
    experimentId: e.id,
    variantId: v.id,
    variantKey: v.key,
    transformProfile: v.profile,
    countExposure,
    visitor,
    network,
  };
}

/** Maps a 32-bit hash to a variant: bucket = floor(hash × total / 2³²), then the weight range. */
function pickVariant(e: Compiled, hash: number): number {
  const bucket = Math.floor((hash * e.total) / 4294967296);
  const cum = e.cumulative;
  for (let i = 0; i < cum.length; i++) if (bucket < cum[i]) return i;
  return cum.length - 1;
}

/** The four x-cachely-* headers (plus control's X-AI-Transform headers) for an assignment. */
export function experimentHeaders(a: Assignment): Record<string, string> {
  const h: Record<string, string> = {
    "x-cachely-experiment-id": String(a.experimentId),
    "x-cachely-variant-id": String(a.variantId),
    "x-cachely-variant-key": a.variantKey,
    "x-cachely-experiment-profile": a.transformProfile ?? "control",
  };
  if (a.transformProfile === null) {
    h["x-ai-transform"] = "skipped";
    h["x-ai-transform-skip-reason"] = "experiment-control";
  }
  return h;
}

/** Every experiment header, for Access-Control-Expose-Headers (SPEC). */
export const EXPERIMENT_EXPOSE_HEADERS = [
  "x-cachely-experiment-id",
  "x-cachely-variant-id",
  "x-cachely-variant-key",
  "x-cachely-experiment-profile",
  "x-ai-transform",
  "x-ai-transform-skip-reason",
];
