/**
 * The publish-webhook secret (SPEC "Webhooks, members and invites": webhook,
 * webhook-secret). Stored AES-GCM-encrypted because POST webhook-secret must
 * return the existing secret; compared in constant time on every webhook call.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Services } from "../services.ts";
import { tenants } from "../db/schema/mod.ts";
import { requireEncryptionKey, type Tenant } from "../tenants/service.ts";
import {
  decryptSecret,
  encryptSecret,
  randomToken,
  sha256Hex,
  timingSafeEqual,
} from "../crypto/mod.ts";
import { recordAudit } from "../audit/mod.ts";

export const PUBLISH_SECRET_PREFIX = "cly_whs_";

/** Returns the tenant's secret, creating it on first call (idempotent, race-safe). */
export async function ensurePublishSecret(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
): Promise<string> {
  const key = requireEncryptionKey(s);
  if (tenant.publishSecretEnc) return await decryptSecret(key, tenant.publishSecretEnc);
  const secret = randomToken(32, PUBLISH_SECRET_PREFIX);
  // Only the first of concurrent callers writes; the others read the winner's secret.
  const won = await s.db.update(tenants)
    .set({ publishSecretEnc: await encryptSecret(key, secret) })
    .where(and(eq(tenants.id, tenant.id), isNull(tenants.publishSecretEnc)))
    .returning({ id: tenants.id });
  if (won.length === 0) {
    const [row] = await s.db.select({ enc: tenants.publishSecretEnc }).from(tenants)
      .where(eq(tenants.id, tenant.id));
    return await decryptSecret(key, row.enc!);
  }
  await recordAudit(s, {
    tenantId: tenant.id,
    actorUserId,
    action: "webhook_secret.created",
    target: tenant.slug,
  });
  return secret;
}

/** Replaces the secret; the old one fails from the next request on. */
export async function rotatePublishSecret(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
): Promise<string> {
  const secret = randomToken(32, PUBLISH_SECRET_PREFIX);
  await s.db.update(tenants)
    .set({ publishSecretEnc: await encryptSecret(requireEncryptionKey(s), secret) })
    .where(eq(tenants.id, tenant.id));
  await recordAudit(s, {
    tenantId: tenant.id,
    actorUserId,
    action: "webhook_secret.rotated",
    target: tenant.slug,
  });
  return secret;
}

/**
 * Constant-time check of a presented secret. Both sides are hashed first so the
 * comparison runs over equal lengths whatever the caller sends.
 */
export async function publishSecretMatches(
  s: Services,
  tenant: Tenant,
  presented: string,
): Promise<boolean> {
  if (!tenant.publishSecretEnc) return false;
  const stored = await decryptSecret(requireEncryptionKey(s), tenant.publishSecretEnc);
  return timingSafeEqual(await sha256Hex(presented), await sha256Hex(stored));
}
