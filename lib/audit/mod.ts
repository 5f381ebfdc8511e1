/**
 * Audit events: who changed what in a tenant. Metadata is built by callers from
 * non-secret fields only; `redact` strips anything secret-looking as a second line of defence.
 */
import { and, desc, eq, lt } from "drizzle-orm";
import type { Services } from "../services.ts";
import { auditEvents } from "../db/schema/mod.ts";
import type { Db } from "../db/client.ts";
import { z } from "zod";
import { str } from "../base/text.ts";
import { isoTime } from "../base/shapes.ts";

export type AuditInput = {
  tenantId: number;
  actorUserId: string | null;
  action: string;
  target?: string | null;
  metadata?: Record<string, unknown>;
};

const SECRET_KEY = /token|secret|password|apikey|api_key|apisecret|authorization/i;

export function redact(meta: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta)) {
    // `hasToken`-style flags say whether a secret exists; they are not secrets.
    if (SECRET_KEY.test(k) && !/^has[A-Z]/.test(k)) out[k] = "[redacted]";
    else if (v && typeof v === "object" && !Array.isArray(v)) {
      out[k] = redact(v as Record<string, unknown>);
    } else out[k] = v;
  }
  return out;
}

export async function recordAudit(db: Db | Services, e: AuditInput): Promise<void> {
  const d = "db" in db ? db.db : db;
  await d.insert(auditEvents).values({
    tenantId: e.tenantId,
    actorUserId: e.actorUserId,
    action: e.action,
    target: e.target ?? null,
    metadata: redact(e.metadata ?? {}),
  });
}

/** The response shape of `listAudit`. Metadata is open: each action records its own. */
export const auditPageSchema = z.strictObject({
  events: z.array(z.strictObject({
    id: z.number().int(),
    action: str(),
    actorUserId: str().nullable(),
    target: str().nullable(),
    metadata: z.record(str(), z.unknown()).describe("Secrets are redacted"),
    createdAt: isoTime,
  })),
  hasMore: z.boolean().describe("Whether older events exist (pass the last id as beforeId)"),
});

/** Keyset pagination, newest first: events with id < beforeId, `limit` of them, and hasMore. */
export async function listAudit(
  s: Services,
  tenantId: number,
  limit: number,
  beforeId?: number,
) {
  const where = beforeId === undefined
    ? eq(auditEvents.tenantId, tenantId)
    : and(eq(auditEvents.tenantId, tenantId), lt(auditEvents.id, beforeId));
  const rows = await s.db.select().from(auditEvents).where(where)
    .orderBy(desc(auditEvents.id)).limit(limit + 1);
  return {
    events: rows.slice(0, limit).map((r) => ({
      id: r.id,
      action: r.action,
      actorUserId: r.actorUserId,
      target: r.target,
      metadata: r.metadata,
      createdAt: r.createdAt.toISOString(),
    })),
    hasMore: rows.length > limit,
  };
}
