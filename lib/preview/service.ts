/**
 * Editors' previews, the management side (docs/providers.md "Previews"): the tenant's
 * preview-link secret (created with the first link, rotatable by admin+), signed links,
 * and the preview credential (a separate token and API origin). Everything lives in
 * tenants.settings, sealed, and reaches the edge in the tenant's snapshot through
 * changeTenant, so every instance verifies a link alike. Every change is audited.
 */
import { eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { tenants } from "../db/schema/mod.ts";
import { encryptSecret, randomToken } from "../crypto/mod.ts";
import { openToken } from "../net/credentials.ts";
import { recordAudit } from "../audit/mod.ts";
import { changeTenant } from "../edge_config/changes.ts";
import { settingsPatch } from "../tenants/settings_patch.ts";
import { proxyBase, requireEncryptionKey, type Tenant } from "../tenants/service.ts";
import { badRequest } from "../errors.ts";
import { validateUpstreamOrigin } from "../tenants/upstream.ts";
import type { PreviewSettings } from "./snapshot.ts";
import {
  PREVIEW_LINK_DEFAULT_TTL_SECONDS,
  PREVIEW_TOKEN_PARAM,
  previewKey,
  scopeOf,
  signPreviewToken,
} from "./link_token.ts";

const settingsOf = (t: Tenant) => t.settings as PreviewSettings;

/** Writes preview settings keys under the tenant lock, so the edge's snapshot follows. */
async function writeSettings(
  s: Services,
  tenant: Tenant,
  patch: PreviewSettings | Record<string, undefined>,
  audit: { actorUserId: string; action: string; metadata?: Record<string, unknown> },
  onlyIfNoSecret = false,
): Promise<void> {
  await changeTenant(s, tenant.id, async (tx) => {
    if (onlyIfNoSecret) {
      // changeTenant holds the tenant row lock: a concurrent first link waits and sees ours.
      const [row] = await tx.db.select({ settings: tenants.settings }).from(tenants)
        .where(eq(tenants.id, tenant.id));
      if ((row?.settings as PreviewSettings | undefined)?.previewSecretEnc) return;
    }
    const settings = settingsPatch(patch);
    if (settings) await tx.db.update(tenants).set({ settings }).where(eq(tenants.id, tenant.id));
    await recordAudit(tx, { tenantId: tenant.id, target: tenant.slug, ...audit });
  });
}

async function currentSecret(s: Services, tenantId: number): Promise<string | null> {
  const [row] = await s.db.select({ settings: tenants.settings }).from(tenants)
    .where(eq(tenants.id, tenantId));
  const enc = (row?.settings as PreviewSettings | undefined)?.previewSecretEnc ?? null;
  return await openToken(requireEncryptionKey(s), enc);
}

const newSecret = async (s: Services) =>
  await encryptSecret(requireEncryptionKey(s), randomToken(32, "cly_pvs_"));

type PreviewLink = {
  url: string;
  token: string;
  path: string;
  scope: string;
  expiresAt: string;
};

/**
 * A signed link for a site or API path, valid `ttlSeconds` (default 2 h). An API path scopes
 * the link to itself; a site page to every API read (the page's content comes from them).
 */
export async function createPreviewLink(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  input: { path: string; ttlSeconds?: number },
): Promise<PreviewLink> {
  const path = input.path;
  if (!path.startsWith("/") || path.startsWith("//") || /[#\s]/.test(path)) {
    throw badRequest("path must start with / and hold no # or spaces", {
      fields: { path: "must be a path on the tenant host, such as /~api/stories/home or /blog" },
    });
  }
  const ttl = input.ttlSeconds ?? PREVIEW_LINK_DEFAULT_TTL_SECONDS;
  let secret = await currentSecret(s, tenant.id);
  if (secret === null) {
    await writeSettings(s, tenant, { previewSecretEnc: await newSecret(s) }, {
      actorUserId,
      action: "preview_secret.created",
    }, true);
    secret = await currentSecret(s, tenant.id);
  }
  const pathname = path.split("?")[0];
  const scope = scopeOf(pathname);
  const expires = Math.floor(s.clock.now() / 1000) + ttl;
  const token = await signPreviewToken(await previewKey(secret!), {
    t: tenant.id,
    s: scope,
    e: expires,
  });
  const expiresAt = new Date(expires * 1000).toISOString();
  await recordAudit(s, {
    tenantId: tenant.id,
    actorUserId,
    action: "preview_link.created",
    target: tenant.slug,
    metadata: { path, scope, expiresAt },
  });
  const sep = path.includes("?") ? "&" : "?";
  const url = `${proxyBase(s, tenant.slug)}${path}${sep}${PREVIEW_TOKEN_PARAM}=${token}`;
  return { url, token, path, scope, expiresAt };
}

/** A new secret: every link made before stops working at once, on every instance. */
export async function rotatePreviewSecret(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
): Promise<{ ok: true; rotatedAt: string }> {
  await writeSettings(s, tenant, { previewSecretEnc: await newSecret(s) }, {
    actorUserId,
    action: "preview_secret.rotated",
  });
  return { ok: true, rotatedAt: new Date(s.clock.now()).toISOString() };
}

/**
 * The preview credential: a token (write-only, sealed) and an API origin used only for
 * requests with a valid link. null removes one; undefined keeps it.
 */
export async function setPreviewCredential(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  input: { token?: string | null; apiOrigin?: string | null },
): Promise<{ ok: true; hasToken: boolean; apiOrigin: string | null }> {
  const patch: Record<string, string | undefined> = {};
  const current = settingsOf(tenant);
  let hasToken = current.previewTokenEnc !== undefined;
  let apiOrigin = current.previewApiOrigin ?? null;
  if (input.token !== undefined) {
    patch.previewTokenEnc = input.token === null
      ? undefined
      : await encryptSecret(requireEncryptionKey(s), input.token);
    hasToken = input.token !== null;
  }
  if (input.apiOrigin !== undefined) {
    apiOrigin = input.apiOrigin === null
      ? null
      : await validateUpstreamOrigin(s, "apiOrigin", input.apiOrigin);
    patch.previewApiOrigin = apiOrigin ?? undefined;
  }
  await writeSettings(s, tenant, patch, {
    actorUserId,
    action: "preview_credential.updated",
    metadata: {
      token: input.token === undefined ? "kept" : hasToken ? "set" : "removed",
      apiOrigin,
    },
  });
  return { ok: true, hasToken, apiOrigin };
}
