/**
 * After the address owner takes over an unverified account (claim_account.ts), the members
 * the previous holder added may be the squatter's own accounts. The owner is shown them
 * (the members of tenants the account administers and its pending invites, as they were at
 * the takeover: all the previous holder's doing) and confirms their removal. The list is
 * kept in KV for 90 days; an owner can never be removed this way.
 */
import { and, eq, inArray, isNull, ne } from "drizzle-orm";
import type { Services } from "../services.ts";
import { invites, tenantMembers, tenants, users } from "../db/schema/mod.ts";
import { kvRetry } from "../kv/retry.ts";

const key = (userId: string) => ["takeover_review", userId] as const;
const KEEP_MS = 90 * 24 * 3_600_000;
/** A KV value stays small: a squatter with more than this is cut to the first ones. */
const MAX_LISTED = 500;

type Mark = { claimedAt: number; members: [number, string][]; invites: number[] };

export type TakeoverReview = {
  claimedAt: string;
  members: { tenant: string; userId: string; email: string; role: string }[];
  invites: { tenant: string; email: string; role: string }[];
};

/**
 * Everyone the account let in so far: members (not the account itself) of the tenants it
 * owns or administers, and its pending invites. Called at the takeover, when all of them
 * are the previous holder's doing.
 */
async function letIn(s: Services, userId: string, only?: Mark) {
  const administered = s.db.select({ id: tenantMembers.tenantId }).from(tenantMembers)
    .where(and(eq(tenantMembers.userId, userId), inArray(tenantMembers.role, ["owner", "admin"])));
  const members = (await s.db.select({
    tenantId: tenantMembers.tenantId,
    tenant: tenants.slug,
    userId: tenantMembers.userId,
    email: users.email,
    role: tenantMembers.role,
  }).from(tenantMembers)
    .innerJoin(tenants, eq(tenants.id, tenantMembers.tenantId))
    .innerJoin(users, eq(users.id, tenantMembers.userId))
    .where(and(inArray(tenantMembers.tenantId, administered), ne(tenantMembers.userId, userId))))
    .filter((m) => !only || only.members.some(([t, u]) => t === m.tenantId && u === m.userId));
  const sent = (await s.db.select({
    id: invites.id,
    tenant: tenants.slug,
    email: invites.email,
    role: invites.role,
  }).from(invites)
    .innerJoin(tenants, eq(tenants.id, invites.tenantId))
    .where(
      and(eq(invites.invitedBy, userId), isNull(invites.acceptedAt), isNull(invites.revokedAt)),
    ))
    .filter((i) => !only || only.invites.includes(i.id));
  return { members, sent };
}

export async function markTakeoverReview(s: Services, userId: string, claimedAt: number) {
  const { members, sent } = await letIn(s, userId);
  const mark: Mark = {
    claimedAt,
    members: members.slice(0, MAX_LISTED).map((m) => [m.tenantId, m.userId]),
    invites: sent.slice(0, MAX_LISTED).map((i) => i.id),
  };
  await kvRetry(() => s.kv.set(key(userId), mark, { expireIn: KEEP_MS }));
}

/** What the owner should look at (those still there), or null when there is no review. */
export async function takeoverReview(s: Services, userId: string): Promise<TakeoverReview | null> {
  const mark = (await s.kv.get<Mark>(key(userId))).value;
  if (!mark) return null;
  const { members, sent } = await letIn(s, userId, mark);
  return {
    claimedAt: new Date(mark.claimedAt).toISOString(),
    members: members.map(({ tenant, userId, email, role }) => ({ tenant, userId, email, role })),
    invites: sent.map(({ tenant, email, role }) => ({ tenant, email, role })),
  };
}

/** Removes the listed members and revokes the listed invites; the review ends. */
export async function confirmTakeoverReview(s: Services, userId: string) {
  const mark = (await s.kv.get<Mark>(key(userId))).value;
  if (!mark) return { removedMembers: 0, revokedInvites: 0 };
  const { members, sent } = await letIn(s, userId, mark);
  await s.db.transaction(async (tx) => {
    for (const m of members) {
      await tx.delete(tenantMembers).where(and(
        eq(tenantMembers.tenantId, m.tenantId),
        eq(tenantMembers.userId, m.userId),
        ne(tenantMembers.role, "owner"),
      ));
    }
    if (sent.length > 0) {
      await tx.update(invites).set({ revokedAt: new Date(s.clock.now()) })
        .where(and(inArray(invites.id, sent.map((i) => i.id)), isNull(invites.acceptedAt)));
    }
  });
  await kvRetry(() => s.kv.delete(key(userId)));
  s.log.info("takeover review confirmed", {
    userId,
    removedMembers: members.length,
    revokedInvites: sent.length,
  });
  return { removedMembers: members.length, revokedInvites: sent.length };
}
