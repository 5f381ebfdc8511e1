/**
 * Prewarm after a publish (docs/decisions.md "Publish webhooks purge by
 * entity"). When a tenant's snapshot brings an entity purge this instance has
 * not seen (a webhook in "entities" scope), the instance looks for the answers it holds
 * that the purge matched and that visitors asked for in the last PREWARM_RECENT_MS (at most
 * PREWARM_MAX_KEYS, most recently used first). For each one, the instances race for a claim
 * in KV (an atomic check that the key is absent, CLAIM_BATCH per operation:
 * edge/prewarm_claims.ts):
 * - the winner refetches it through the API proxy's own fill (entity tags, read your
 *   publish): its smallest answer first, alone, again after a tenth of its wait while the
 *   CMS's CDN still serves the old revision (edge/prewarm_schedule.ts), then the rest at
 *   once; it keeps each and leaves a copy in KV (edge/prewarm_copies.ts, group commits,
 *   expiring on its own);
 * - the others poll for those copies (a twentieth of their wait apart, one KV read each
 *   time) and keep them in their own memory tier.
 * So the origin is asked once per purged answer, and the first visitor on any instance
 * gets a memory HIT. The hit path is unchanged but for one time stamp write (usedAt); no
 * PostgreSQL anywhere.
 */
import { type EdgeContext, RequestContext } from "./context.ts";
import type { SnapshotCache } from "./snapshots.ts";
import type { PurgeIndex } from "./cache/purges.ts";
import { announcementsOf, type EdgeSnapshot, PUBLISH_WAIT_MS } from "../lib/kv/snapshot.ts";
import { refetchApi } from "./api_proxy.ts";
import type { CachedObject } from "./cache/store.ts";
import { tagLoaded } from "./entity_fill.ts";
import { kvKeys } from "../lib/kv/keys.ts";
import { sha256Hex } from "../lib/crypto/mod.ts";
import { copyPollDelay, probeDelay } from "./prewarm_schedule.ts";
import { claimAll } from "./prewarm_claims.ts";
import { type CopyHead, CopyWriter, MAX_SHARED_BYTES, readCopy } from "./prewarm_copies.ts";

/** "Recent traffic": a visitor was served the answer this long ago at most. */
const PREWARM_RECENT_MS = 10 * 60_000;
/** Answers prewarmed per tenant and publish at most. */
const PREWARM_MAX_KEYS = 100;
/** The claimer's back-off runs PUBLISH_WAIT_MS at most; its claim outlives it. */
const CLAIM_TTL_MS = PUBLISH_WAIT_MS + 15_000;
const COPY_TTL_MS = CLAIM_TTL_MS + 30_000;
/**
 * Answers refetched at once per publish on one instance, once its probe found the CMS fresh:
 * all of a usual publish's (41 in bench/publish_prewarm.ts); 8 at a time took 200 ms more.
 */
const CONCURRENCY = 50;
/** Purges announced longer ago than this when the instance first sees its tenant are not new. */
const NEW_MS = 10_000;
const MAX_TENANTS = 10_000;

type Candidate = { key: string; usedAt: number; bytes: number; hash?: string };
type Counts = { fetched: number; copied: number; missed: number };
/**
 * One publish's prewarm on this instance: the answers it claimed and those others did, its
 * counts, and when (ms after the purge) the first answer was fresh here.
 */
type Warm = {
  snap: EdgeSnapshot;
  purgeAt: number;
  won: Candidate[];
  lost: Candidate[];
  counts: Counts;
  freshMs: number | null;
  /** Its claimer's refetches done, its copies done (ms after the purge); the probe's tries. */
  fetchedMs?: number;
  copiedMs?: number;
  tries: number;
};

/** The time of a snapshot's latest purge (its records are a new array at every reload). */
function lastPurge(snap: EdgeSnapshot | null): number {
  let at = 0;
  for (const p of snap?.purges ?? []) at = Math.max(at, p.at);
  return at;
}

/** Kept one back-off step only: the CMS still served what a publish replaced. */
const behind = (obj: CachedObject) => obj.headers.some(([n]) => n === "x-cachely-behind");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Prewarmer {
  /** Tenant id -> the latest announced purge already handled. */
  #seen = new Map<number, number>();
  /** Refetched from the origin (claims won and completed), copied from KV, given up. */
  readonly counts: Counts = { fetched: 0, copied: 0, missed: 0 };
  readonly #me = crypto.randomUUID();
  readonly #copies: CopyWriter;

  constructor(
    private ec: EdgeContext,
    private snapshots: SnapshotCache,
    private purges: PurgeIndex,
  ) {
    this.#copies = new CopyWriter(ec.deps.kv, COPY_TTL_MS);
  }

  /** A tenant's snapshot changed (its memo was just dropped): prewarm after a new publish. */
  changed(slug: string): void {
    this.run(slug).catch((e) => {
      this.ec.deps.log.warn("prewarm failed", { tenant: slug, error: String(e) });
    });
  }

  private async run(slug: string): Promise<void> {
    const got = this.snapshots.get(slug);
    const snap = got instanceof Promise ? await got : got;
    if (!snap?.purges?.length) return;
    const now = this.ec.deps.clock.now();
    const seen = this.#seen.get(snap.tenantId) ?? now - NEW_MS;
    let latest = seen;
    for (const p of snap.purges) {
      for (const a of announcementsOf(p)) if (a.at > latest) latest = a.at;
    }
    if (latest === seen) return;
    if (this.#seen.size >= MAX_TENANTS) this.#seen.clear();
    this.#seen.set(snap.tenantId, latest);
    this.purges.sync(snap.tenantId, snap.purges);
    const found = this.candidates(snap, now);
    if (found.length === 0) return;
    const counts = { fetched: 0, copied: 0, missed: 0 };
    const w: Warm = { snap, purgeAt: latest, won: [], lost: [], counts, freshMs: null, tries: 0 };
    await this.claim(w, found);
    const claimedMs = this.sincePurge(w);
    await Promise.all([this.fetchWon(w), this.copyLost(w)]);
    for (const k of ["fetched", "copied", "missed"] as const) this.counts[k] += counts[k];
    // The steps' times (ms after the webhook's purge): seen here, claimed, first fresh, done.
    this.ec.deps.log.info("prewarmed", {
      tenant: slug,
      keys: found.length,
      won: w.won.length,
      ...counts,
      seenMs: now - latest,
      claimedMs,
      freshMs: w.freshMs,
      doneMs: this.sincePurge(w),
      fetchedMs: w.fetchedMs,
      copiedMs: w.copiedMs,
      tries: w.tries,
      purgeAt: w.purgeAt,
    });
  }

  private sincePurge(w: Warm): number {
    return this.ec.deps.clock.now() - w.purgeAt;
  }

  /** An answer of this run is fresh here: the first one's time is logged. */
  private fresh(w: Warm, k: "fetched" | "copied"): void {
    w.counts[k]++;
    w.freshMs ??= this.sincePurge(w);
  }

  /** The tenant's plain API answers held here, used recently, that its purges matched. */
  private candidates(snap: EdgeSnapshot, now: number): Candidate[] {
    const prefix = `a|${snap.tenantId}|${snap.versions.api}|`;
    const cutoff = now - PREWARM_RECENT_MS;
    const out: Candidate[] = [];
    for (const obj of this.ec.through.cache.lru.recent()) {
      // Most recently used first: past the window nothing further is recent.
      if (obj.usedAt < cutoff && obj.storedAt < cutoff) break;
      const key = obj.lruKey!;
      if (obj.usedAt < cutoff || !key.startsWith(prefix) || key.includes("|t=")) continue;
      if (!this.purges.purged(key, obj)) continue;
      out.push({ key, usedAt: obj.usedAt, bytes: obj.bodyLength });
      if (out.length >= PREWARM_MAX_KEYS) break;
    }
    // Smallest first: the probe (the first claimed) is the cheapest request, usually the
    // published entry's own answer, the one its visitors ask for first.
    return out.sort((a, b) => a.bytes - b.bytes);
  }

  /**
   * Races for the candidates' claims in KV, in batches (edge/prewarm_claims.ts). A claim KV
   * keeps failing to write is left to the others: this instance waits for their copy.
   */
  private async claim(w: Warm, found: Candidate[]): Promise<void> {
    await Promise.all(found.map(async (c) => c.hash = await sha256Hex(c.key)));
    const keys = found.map((c) => kvKeys.prewarmClaim(w.snap.tenantId, w.purgeAt, c.hash!));
    let won = found.map(() => false);
    try {
      won = await claimAll(this.ec.deps.kv, keys, this.#me, CLAIM_TTL_MS);
    } catch (e) {
      this.ec.deps.log.warn("prewarm claims failed", { error: String(e) });
    }
    found.forEach((c, i) => (won[i] ? w.won : w.lost).push(c));
  }

  /**
   * Refetches the answers this instance claimed and shares each: the first alone until the
   * CMS serves the publish (it probes the CDN's lag), then the rest, CONCURRENCY at a time.
   */
  private async fetchWon(w: Warm): Promise<void> {
    const one = async (c: Candidate) => {
      // A visitor here refetched it meanwhile: that copy is shared, the origin not asked again.
      const held = this.heldNewer(c.key, w.purgeAt) ? this.ec.through.cache.lru.peek(c.key)! : null;
      const obj = held ?? await this.refetch(w, c);
      if (obj === null) return;
      if (held === null) this.fresh(w, "fetched");
      if (obj.bodyLength <= MAX_SHARED_BYTES) {
        await this.#copies.share(this.where(w, c), obj);
      }
    };
    if (w.won.length === 0) return;
    await one(w.won[0]);
    let next = 1;
    const worker = async () => {
      while (next < w.won.length) await one(w.won[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, w.won.length) }, worker));
    w.fetchedMs = this.sincePurge(w);
  }

  /**
   * Refetches until the answer shows the publish (or read your publish gives up), with the
   * tenant's snapshot as it stands at each try: a later publish's announcement is awaited too.
   */
  private async refetch(w: Warm, c: Candidate) {
    const start = performance.now();
    const until = start + PUBLISH_WAIT_MS + 5_000;
    for (;;) {
      // Checked first: a publish announced during each fetch (the `continue` below) must not
      // keep this loop going past the deadline either.
      if (performance.now() > until) return null;
      const snap = await this.current(w);
      const request = snap && requestOf(this.ec, snap, c.key);
      if (!request) return null;
      w.tries++;
      const obj = await refetchApi(this.ec, request.rc, request.apiPath, c.key);
      if (obj === null) return null;
      obj.usedAt = c.usedAt; // a prewarm is no visitor
      // A publish announced during the fetch was not checked against it: ask again.
      if (lastPurge(await this.current(w)) !== lastPurge(snap)) {
        if (this.ec.through.cache.lru.peek(c.key) === obj) {
          await this.ec.through.cache.delete(c.key);
        }
        continue;
      }
      if (!behind(obj)) return obj;
      // The copy is kept one back-off step; the prewarm asks again sooner (one answer at a time).
      await sleep(Math.min(Math.max(obj.ttlMs, 50), probeDelay(performance.now() - start)));
    }
  }

  /** The tenant's snapshot now, or null when it is gone or its API version moved on. */
  private async current(w: Warm): Promise<EdgeSnapshot | null> {
    const got = this.snapshots.get(w.snap.slug);
    const snap = got instanceof Promise ? await got : got;
    if (snap === null || snap.tenantId !== w.snap.tenantId) return null;
    if (snap.purges !== undefined) this.purges.sync(snap.tenantId, snap.purges);
    return snap.versions.api === w.snap.versions.api ? snap : null;
  }

  /**
   * Waits for the copies of the answers other instances claimed (copyPollDelay apart) and
   * keeps each in memory, tagged as at fill.
   */
  private async copyLost(w: Warm): Promise<void> {
    const start = performance.now();
    const until = start + CLAIM_TTL_MS;
    let pending = w.lost;
    while (pending.length > 0 && performance.now() < until) {
      await sleep(copyPollDelay(performance.now() - start));
      const heads = await this.heads(w, pending);
      const still: Candidate[] = [];
      const found: Promise<void>[] = [];
      for (const c of pending) {
        if (this.heldNewer(c.key, w.purgeAt)) continue; // a visitor here refetched it
        const head = heads.get(c.hash!);
        if (head === undefined) still.push(c);
        else found.push(this.keepCopy(w, c, head));
      }
      await Promise.all(found); // the copies one read found, stored in parallel
      pending = still;
    }
    w.counts.missed += pending.length;
    if (w.lost.length > 0) w.copiedMs = this.sincePurge(w);
  }

  /**
   * The heads of the copies of `pending` in KV, by key hash: one read either way, a getMany
   * for up to 10 (its limit), else a listing of the publish's copies (one range read, not a
   * getMany per 10: under load each KV round trip took 40-200 ms).
   */
  private async heads(w: Warm, pending: Candidate[]): Promise<Map<string, CopyHead>> {
    const kv = this.ec.deps.kv;
    const out = new Map<string, CopyHead>();
    if (pending.length <= 10) {
      const keys = pending.map((c) => kvKeys.prewarmCopy(w.snap.tenantId, w.purgeAt, c.hash!));
      const got = await kv.getMany<CopyHead[]>(keys);
      got.forEach((e, i) => e.value !== null && out.set(pending[i].hash!, e.value));
      return out;
    }
    const prefix = kvKeys.prewarmCopies(w.snap.tenantId, w.purgeAt);
    for await (const e of kv.list<CopyHead>({ prefix }, { batchSize: 500 })) {
      out.set(e.key[prefix.length] as string, e.value);
    }
    return out;
  }

  private where(w: Warm, c: Candidate) {
    return { tenantId: w.snap.tenantId, purgeAt: w.purgeAt, hash: c.hash! };
  }

  /** Stores the claimer's copy of `c` here, unless this instance holds a newer answer. */
  private async keepCopy(w: Warm, c: Candidate, head: CopyHead): Promise<void> {
    const obj = await readCopy(this.ec.deps.kv, this.where(w, c), head);
    const snap = await this.current(w);
    const request = snap && requestOf(this.ec, snap, c.key);
    if (obj === null || !request || this.heldNewer(c.key, obj.storedAt)) return;
    const log = this.ec.deps.log;
    const f = { snap: snap!, apiPath: request.apiPath, query: request.rc.query, key: c.key, log };
    // Behind a publish announced since the claimer fetched it: left to that publish's prewarm.
    const r = tagLoaded(f, { kind: "object", obj, cacheable: true });
    if (r.kind !== "object" || behind(r.obj)) return;
    this.ec.through.cache.store(c.key, r.obj, true); // a key with recent traffic: shared
    r.obj.usedAt = c.usedAt;
    this.fresh(w, "copied");
  }

  /** True when this instance already holds an answer for `key` stored after `at`. */
  private heldNewer(key: string, at: number): boolean {
    const cur = this.ec.through.cache.lru.peek(key);
    return cur !== undefined && cur.storedAt > at && !this.purges.purged(key, cur) && !behind(cur);
  }
}

/**
 * The request a cache key was filled for: `a|<tenant>|<version>|<origin>[#raw]|<path>?<query>`
 * (edge/cache/keys.ts apiKey).
 */
function requestOf(ec: EdgeContext, snap: EdgeSnapshot, key: string) {
  let i = 0;
  for (let n = 0; n < 3; n++) i = key.indexOf("|", i) + 1;
  const j = key.indexOf("|", i);
  const q = key.indexOf("?", j);
  if (i === 0 || j === -1 || q === -1) return null;
  const origin = key.slice(i, j).replace(/#raw$/, "");
  const apiPath = key.slice(j + 1, q);
  const query = key.slice(q + 1);
  const path = `/~api${apiPath}`;
  let req: Request;
  try {
    req = new Request(`${origin}${path}${query ? `?${query}` : ""}`);
  } catch {
    return null;
  }
  const target = { surface: "tenant" as const, slug: snap.slug };
  const info = { clientIp: "127.0.0.1" };
  const rc = new RequestContext(
    req,
    "GET",
    target,
    info,
    snap,
    origin,
    path,
    query,
    ec.providers,
  );
  return { rc, apiPath };
}
