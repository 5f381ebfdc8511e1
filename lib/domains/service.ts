/**
 * Custom domains of a tenant: add, list, find, delete. Hostnames are unique across
 * all tenants. Only active domains reach the edge (snapshot `domains` + KV host
 * route, written by the projector); verification lives in verify.ts.
 */
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { domains } from "../db/schema/mod.ts";
import type { Tenant } from "../tenants/service.ts";
import { badRequest, conflict, notFound } from "../errors.ts";
import { randomToken } from "../crypto/mod.ts";
import { recordAudit } from "../audit/mod.ts";
import { changeTenant } from "../edge_config/changes.ts";
import { checkDomainRules } from "./plan_rules.ts";

export type Domain = typeof domains.$inferSelect;
export type DomainRef = { id?: number; hostname?: string };

export const TXT_PREFIX = "_cachely";
export const TXT_VALUE_PREFIX = "cachely-verify=";

/** The tenant's own host a custom domain may CNAME to: `<slug>.<PROXY_DOMAIN host>` (no port). */
export function tenantCnameTarget(s: Services, slug: string): string {
  return `${slug}.${s.config.proxyDomain.replace(/:\d+$/, "")}`;
}

/**
 * The CNAME targets a custom domain may name: the shared one (CNAME_TARGET, default
 * `proxy.<PROXY_DOMAIN host>`, what the original product's customers point at and what the
 * dashboard shows) first, then the tenant's own host, then the legacy targets
 * (CNAME_TARGETS) domains made for the original product still point at.
 */
export function cnameTargets(s: Services, slug: string): string[] {
  return [s.config.cnameTarget, tenantCnameTarget(s, slug), ...s.config.legacyCnameTargets];
}

export function domainView(s: Services, d: Domain) {
  return {
    id: d.id,
    hostname: d.hostname,
    status: d.status,
    failureReason: d.failureReason,
    verification: {
      txt: {
        name: `${TXT_PREFIX}.${d.hostname}`,
        value: `${TXT_VALUE_PREFIX}${d.verificationToken}`,
      },
      cname: { name: d.hostname, target: s.config.cnameTarget },
    },
    verifiedAt: d.verifiedAt?.toISOString() ?? null,
    lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
  };
}

export async function listDomains(s: Services, tenantId: number): Promise<Domain[]> {
  return await s.db.select().from(domains).where(eq(domains.tenantId, tenantId))
    .orderBy(asc(domains.hostname));
}

/** A tenant's domain by id or hostname; another tenant's domain is "not found". */
export async function findDomain(s: Services, tenantId: number, ref: DomainRef): Promise<Domain> {
  const by = ref.id !== undefined
    ? eq(domains.id, ref.id)
    : eq(domains.hostname, ref.hostname ?? "");
  const rows = await s.db.select().from(domains).where(and(eq(domains.tenantId, tenantId), by));
  if (!rows[0]) throw notFound("Domain");
  return rows[0];
}

/** Refuses our own hosts: they are routed already and must never be claimed by a tenant. */
function ownHostProblem(s: Services, hostname: string): string | null {
  const proxyHost = s.config.proxyDomain.replace(/:\d+$/, "");
  const appHost = new URL(s.config.publicUrl).hostname;
  if (hostname === proxyHost || hostname.endsWith(`.${proxyHost}`)) {
    return "must not be under the proxy domain";
  }
  if (hostname === appHost) return "must not be the management host";
  return null;
}

export async function addDomain(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  hostname: string,
): Promise<Domain> {
  const problem = ownHostProblem(s, hostname);
  if (problem) throw badRequest(`Invalid hostname: ${problem}`);
  await checkDomainRules(s, tenant.id, hostname);
  const rows = await s.db.transaction(async (tx) => {
    if (s.config.quotas) {
      // One domain per tenant: counted under the tenant's row lock, so two concurrent adds
      // (on any instance) are counted one after the other.
      await tx.execute(sql`SELECT id FROM tenants WHERE id = ${tenant.id} FOR UPDATE`);
      const [{ n }] = await tx.select({ n: count() }).from(domains)
        .where(eq(domains.tenantId, tenant.id));
      if (n > 0) throw conflict("Domain limit reached: a tenant has at most one custom domain");
    }
    return await tx.insert(domains).values({
      tenantId: tenant.id,
      hostname,
      status: "pending",
      verificationToken: randomToken(18),
      createdAt: new Date(s.clock.now()),
    }).onConflictDoNothing().returning();
  });
  if (rows.length === 0) throw conflict(`Domain already exists: ${hostname}`);
  await recordAudit(s, {
    tenantId: tenant.id,
    actorUserId,
    action: "domain.added",
    target: hostname,
    metadata: { domainId: rows[0].id },
  });
  return rows[0];
}

export async function deleteDomain(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  ref: DomainRef,
): Promise<Domain> {
  // The projection drops the host route in the same request when the domain was active.
  return await changeTenant(s, tenant.id, async (tx) => {
    const d = await findDomain(tx, tenant.id, ref);
    await tx.db.delete(domains).where(and(eq(domains.tenantId, tenant.id), eq(domains.id, d.id)));
    await recordAudit(tx, {
      tenantId: tenant.id,
      actorUserId,
      action: "domain.deleted",
      target: d.hostname,
      metadata: { domainId: d.id, status: d.status },
    });
    return d;
  });
}
