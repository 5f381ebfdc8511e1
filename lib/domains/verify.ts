/**
 * Domain verification by DNS: a TXT record `_cachely.<hostname>` containing
 * `cachely-verify=<token>`, or a CNAME from the hostname to the shared target (CNAME_TARGET)
 * or to `<slug>.<PROXY_DOMAIN>`. The shared target does not say which tenant the owner
 * meant; a hostname belongs to one tenant at most, so the first to verify it holds it
 * (docs/decisions.md "Custom domains"). Results: active, or
 * failed with the reason.
 */
import { and, eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { domains } from "../db/schema/mod.ts";
import type { Tenant } from "../tenants/service.ts";
import { recordAudit } from "../audit/mod.ts";
import { notFound } from "../errors.ts";
import { changeTenant } from "../edge_config/changes.ts";
import {
  cnameTargets,
  type Domain,
  type DomainRef,
  findDomain,
  TXT_PREFIX,
  TXT_VALUE_PREFIX,
} from "./service.ts";
import { checkDomainRules } from "./plan_rules.ts";

const DNS_TIMEOUT_MS = 5_000;

type Lookup<T> = { records: T[]; error: string | null };

async function lookup<T>(run: () => Promise<T[]>): Promise<Lookup<T>> {
  try {
    return { records: await run(), error: null };
  } catch (e) {
    const name = e instanceof Error ? e.name : "Error";
    return {
      records: [],
      error: name === "NotFound" ? "no such record" : `lookup failed (${name})`,
    };
  }
}

const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");

/** Checks DNS for one domain; returns the outcome without writing anything. */
export async function checkDomainDns(
  s: Services,
  slug: string,
  d: Domain,
): Promise<{ ok: true; method: "txt" | "cname" } | { ok: false; reason: string }> {
  const opts = () => ({ signal: AbortSignal.timeout(DNS_TIMEOUT_MS) });
  const txtName = `${TXT_PREFIX}.${d.hostname}`;
  const expected = `${TXT_VALUE_PREFIX}${d.verificationToken}`;
  const targets = cnameTargets(s, slug);
  const [txt, cname] = await Promise.all([
    lookup(() => s.resolveDns(txtName, "TXT", opts())),
    lookup(() => s.resolveDns(d.hostname, "CNAME", opts())),
  ]);
  // A TXT record may arrive split into several strings (RFC 1035 character-strings).
  if (txt.records.some((chunks) => chunks.join("").trim() === expected)) {
    return { ok: true, method: "txt" };
  }
  if (cname.records.some((name) => targets.includes(bare(name)))) {
    return { ok: true, method: "cname" };
  }
  const txtWhy = txt.error ?? (txt.records.length ? "does not contain the token" : "no record");
  const cnameWhy = cname.error ??
    (cname.records.length ? `points to ${bare(cname.records[0])}` : "no record");
  return {
    ok: false,
    reason:
      `TXT ${txtName}: ${txtWhy} (expected "${expected}"); CNAME ${d.hostname}: ${cnameWhy} (expected ${
        targets.join(" or ")
      })`,
  };
}

/** Verifies a domain, stores the status, and re-syncs the edge in the same request. */
export async function verifyDomain(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  ref: DomainRef,
): Promise<Domain> {
  const d = await findDomain(s, tenant.id, ref);
  // A suspended domain (or any domain of a tenant whose account left pro) stays off the edge.
  await checkDomainRules(s, tenant.id, d.hostname);
  const result = await checkDomainDns(s, tenant.slug, d);
  const now = new Date(s.clock.now());
  const patch = result.ok
    ? {
      status: "active" as const,
      failureReason: null,
      verifiedAt: d.status === "active" && d.verifiedAt ? d.verifiedAt : now,
    }
    : { status: "failed" as const, failureReason: result.reason, verifiedAt: null };
  // DNS is looked up outside the transaction; the row may have gone meanwhile (404).
  return await changeTenant(s, tenant.id, async (tx) => {
    const [updated] = await tx.db.update(domains).set({ ...patch, lastCheckedAt: now })
      .where(and(eq(domains.tenantId, tenant.id), eq(domains.id, d.id))).returning();
    if (!updated) throw notFound("Domain");
    await recordAudit(tx, {
      tenantId: tenant.id,
      actorUserId,
      action: result.ok ? "domain.verified" : "domain.verification_failed",
      target: d.hostname,
      metadata: result.ok ? { method: result.method } : {},
    });
    return updated;
  });
}
