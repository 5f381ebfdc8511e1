/**
 * Conversion events (SPEC "Conversion events (public)", rules 1-7). Public: security
 * rests on tenant, experiment, variant and variantKey all matching. One row per
 * accepted call, never deduplicated, no derived metrics stored.
 */
import { visitorHash } from "./visitor.ts";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { str } from "../base/text.ts";
import type { Services } from "../services.ts";
import { experimentEvents, experiments, experimentVariants, tenants } from "../db/schema/mod.ts";
import { ApiError, badRequest, notFound, tooManyRequests } from "../errors.ts";
import { parseWith } from "../http/validate.ts";
import { hitRateLimit } from "../kv/rate_limit.ts";
import { limitKey } from "../net/limit_key.ts";
import { EVENT_NAME_RE } from "./schema.ts";

/** SPEC "Limits": 60 events per minute per IP plus tenantSlug. */
export const EVENT_RATE_LIMIT = 60;
export const EVENT_RATE_WINDOW_MS = 60_000;
/** SPEC "Limits": serialized metadata at most 4 KB. */
export const MAX_METADATA_BYTES = 4096;
/** Largest request body read: every field at its limit fits with room to spare. */
export const MAX_EVENT_BODY_BYTES = 16 * 1024;

const enc = new TextEncoder();
const positiveId = z.number().int("must be a positive integer").min(1, "must be a positive integer")
  .max(2_147_483_647, "must be a positive integer");
const optionalText = (max: number) => str().max(max, `must be at most ${max} chars`).nullish();

/** Unknown fields are ignored, so newer trackers keep working against this server. */
export const eventSchema = z.object({
  tenantSlug: str().min(1).max(63),
  experimentId: positiveId,
  variantId: positiveId,
  variantKey: str().min(1).max(64),
  eventName: str().regex(EVENT_NAME_RE, "must match ^[a-zA-Z0-9_.:-]{1,80}$"),
  visitorId: optionalText(200),
  sessionId: optionalText(200),
  url: optionalText(2048),
  referrer: optionalText(2048),
  metadata: z.record(str(), z.unknown()).nullish().refine(
    (m) => m == null || enc.encode(JSON.stringify(m)).byteLength <= MAX_METADATA_BYTES,
    `must serialize to at most ${MAX_METADATA_BYTES} bytes`,
  ),
});
export type EventInput = z.output<typeof eventSchema>;

/** Parses a raw body: malformed JSON and every schema failure are 400 (rule 5). */
export function parseEventBody(text: string): EventInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest("Invalid body: malformed JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("Invalid body: must be a JSON object");
  }
  return parseWith(eventSchema, value);
}

/**
 * Stores one event and returns its id. Order: the per-(IP, tenantSlug) limit first,
 * so a flood never reaches the database; then rules 1-4. Archived experiments accept
 * no events (400 `experiment_archived`, docs/decisions.md); drafts do, so visitors
 * assigned before a pause still convert.
 */
export async function ingestEvent(
  s: Services,
  client: { ip: string; userAgent: string },
  input: EventInput,
): Promise<{ id: number }> {
  const clientIp = client.ip;
  const slug = input.tenantSlug.toLowerCase();
  const now = s.clock.now();
  const rl = await hitRateLimit(
    s.kv,
    "experiment_events",
    `${slug}|${limitKey(clientIp)}`,
    EVENT_RATE_LIMIT,
    EVENT_RATE_WINDOW_MS,
    now,
  );
  if (!rl.allowed) {
    throw tooManyRequests(rl.retryAfterSeconds, "Too many events: at most 60 per minute");
  }
  // Rules 1-4 in one round trip: tenant, its experiment, and that experiment's variant.
  const [hit] = await s.db.select({
    tenantId: tenants.id,
    experimentId: experiments.id,
    status: experiments.status,
    variantId: experimentVariants.id,
    variantKey: experimentVariants.key,
  }).from(tenants)
    .leftJoin(
      experiments,
      and(eq(experiments.tenantId, tenants.id), eq(experiments.id, input.experimentId)),
    )
    .leftJoin(
      experimentVariants,
      and(
        eq(experimentVariants.tenantId, tenants.id),
        eq(experimentVariants.experimentId, experiments.id),
        eq(experimentVariants.id, input.variantId),
      ),
    )
    .where(eq(tenants.slug, slug));
  if (!hit) throw notFound("Tenant");
  if (hit.experimentId === null) throw notFound("Experiment");
  if (hit.status === "archived") {
    throw new ApiError(
      400,
      "experiment_archived",
      `Invalid experimentId: experiment ${hit.experimentId} is archived`,
    );
  }
  if (hit.variantId === null || hit.variantKey === null) {
    throw badRequest(`Invalid variantId: not a variant of experiment ${hit.experimentId}`);
  }
  if (hit.variantKey !== input.variantKey) {
    throw badRequest(`Invalid variantKey: does not match variant ${hit.variantId}`);
  }
  const [row] = await s.db.insert(experimentEvents).values({
    tenantId: hit.tenantId,
    experimentId: hit.experimentId,
    variantId: hit.variantId,
    variantKey: hit.variantKey,
    eventName: input.eventName,
    visitorId: input.visitorId ?? null,
    sessionId: input.sessionId ?? null,
    url: input.url ?? null,
    referrer: input.referrer ?? null,
    metadata: input.metadata ?? null,
    createdAt: new Date(now),
    // The edge's visitor of this experiment: the same browser sends the same IP and agent.
    visitorHash: visitorHash(String(hit.experimentId), clientIp, client.userAgent),
  }).returning({ id: experimentEvents.id });
  return { id: row.id };
}
