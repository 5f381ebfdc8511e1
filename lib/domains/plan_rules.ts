/**
 * Custom-domain plan rules (README "Plans", decisions.md "Quotas"): subdomains only (a CNAME
 * cannot live at a zone apex), custom domains need the pro plan, one per tenant; and the
 * active domains of an account that moved to free keep working until the end of the paid
 * period, then are suspended (kept, not deleted) and come back when it returns to pro.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Services } from "../services.ts";
import { domains } from "../db/schema/mod.ts";
import { badRequest, planRefusal } from "../errors.ts";
import type { PlanCode } from "../billing/plans.ts";
import { billedTenants, billingOwner } from "../billing/owners.ts";
import { accountPlan, findBilling } from "../billing/account.ts";
import { nextPeriodStart } from "../billing/quota.ts";
import { currentPeriod } from "../usage/query.ts";
import { markTenantChanged, projectTenant } from "../edge_config/changes.ts";
import type { Db } from "../db/client.ts";

/** Two-label public suffixes under which the third label is still a registrable apex. */
const TWO_LABEL_SUFFIXES = new Set([
  "co.uk",
  "org.uk",
  "me.uk",
  "ac.uk",
  "gov.uk",
  "com.au",
  "net.au",
  "org.au",
  "co.nz",
  "org.nz",
  "co.jp",
  "ne.jp",
  "or.jp",
  "com.br",
  "com.cn",
  "com.hk",
  "co.in",
  "co.za",
  "com.mx",
  "com.tr",
  "com.sg",
  "co.kr",
  "com.tw",
  "com.ar",
  "co.il",
]);

export const SUSPENDED_REASON = "Suspended: custom domains need the pro plan";

/** True for a zone apex (`example.com`, `shop.co.uk`): no CNAME can live there. */
export function isApex(hostname: string): boolean {
  const labels = hostname.split(".");
  if (labels.length <= 2) return true;
  return labels.length === 3 && TWO_LABEL_SUFFIXES.has(`${labels[1]}.${labels[2]}`);
}

/** 400 for an apex; 403 unless the tenant's billing account is on pro (with quotas on). */
export async function checkDomainRules(s: Services, tenantId: number, hostname: string) {
  if (isApex(hostname)) {
    throw badRequest(
      "Invalid hostname: an apex domain cannot be used, a CNAME cannot live at the apex; use a subdomain such as www",
      { fields: [{ path: "hostname", message: "is an apex domain" }] },
    );
  }
  if (!(await customDomainsAllowed(s, tenantId))) {
    throw planRefusal("Custom domains need the pro plan: upgrade to add one", "plan_required");
  }
}

/** True when the tenant's billing account may add a custom domain (pro, or quotas off). */
export async function customDomainsAllowed(s: Services, tenantId: number): Promise<boolean> {
  if (!s.config.quotas) return true;
  const owner = await billingOwner(s, tenantId);
  return (owner ? await accountPlan(s, owner) : "free") === "pro";
}

/** When the account's active domains stop working after it moved to free (epoch ms). */
async function graceEnd(s: Services, userId: string): Promise<number> {
  const row = await findBilling(s, userId);
  const changed = row?.planChangedAt?.getTime() ?? s.clock.now();
  // The paid period when Stripe tells us its end, else the month in which the plan changed.
  const monthEnd = nextPeriodStart(currentPeriod(changed));
  const paidEnd = row?.currentPeriodEnd?.getTime() ?? 0;
  return Math.max(monthEnd, paidEnd);
}

/**
 * Suspends the active domains of a free account whose grace has ended, and restores
 * suspended domains of a pro account. Returns the number of domains changed.
 */
export async function enforceDomainPlan(
  s: Services,
  userId: string,
  plan: PlanCode,
): Promise<number> {
  if (!s.config.quotas) return 0;
  const ids = (await billedTenants(s, userId)).map((t) => t.id);
  if (ids.length === 0) return 0;
  const from = plan === "pro" ? "suspended" : "active";
  const candidates = await s.db.select({ id: domains.id, tenantId: domains.tenantId }).from(domains)
    .where(and(inArray(domains.tenantId, ids), eq(domains.status, from)));
  if (candidates.length === 0) return 0;
  if (plan !== "pro" && s.clock.now() < await graceEnd(s, userId)) return 0;
  // The affected tenants are marked changed in the same transaction (tenant rows locked first,
  // in id order, like every edge write), then projected after commit.
  const affected = [...new Set(candidates.map((c) => c.tenantId))].sort((a, b) => a - b);
  const { changed, slugs } = await s.db.transaction(async (txAny) => {
    const tx = txAny as unknown as Db;
    const slugs: string[] = [];
    for (const id of affected) {
      const slug = await markTenantChanged(tx, id);
      if (slug) slugs.push(slug);
    }
    const changed = await tx.update(domains).set(
      plan === "pro"
        ? { status: "active", failureReason: null }
        : { status: "suspended", failureReason: SUSPENDED_REASON },
    ).where(and(inArray(domains.tenantId, affected), eq(domains.status, from)))
      .returning({ tenantId: domains.tenantId });
    return { changed, slugs };
  });
  for (const slug of slugs) await projectTenant(s, slug);
  return changed.length;
}
