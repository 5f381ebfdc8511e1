/**
 * Regenerate (SPEC "Regenerate behaviour"): fetch the upstream response the way the
 * edge does (tenant origin, credentials injected, SSRF-guarded, no redirects), apply
 * the edge's URL rewrites, run the profile's active rules through the runtime
 * pipeline, then bump only that (tenant, profile) version and re-sync the snapshot.
 */
import type { Services } from "../services.ts";
import { proxyBase, type Tenant } from "../tenants/service.ts";
import { ApiError, badRequest, notFound } from "../errors.ts";
import { buildSnapshot } from "../edge_config/projector.ts";
import { changeTenant } from "../edge_config/changes.ts";
import { rewriteProviderUrls } from "../rewrite/mod.ts";
import { recordAudit } from "../audit/mod.ts";
import { aiEngineFor, apiBaseOf, routeMatches } from "./engine.ts";
import { bumpRegenVersion } from "./regen.ts";
import { purgeAfterBump } from "../cdn/purge.ts";
import { fetchTenantApi, joinApiPath } from "./upstream.ts";
import type { RegenerateResult } from "./view_schema.ts";

/** `/~api/posts?x=1` -> `/posts?x=1`; anything not starting with `/` is a 400. */
export function normaliseApiPath(raw: string): string {
  if (!raw.startsWith("/")) throw badRequest('Invalid apiPath: must start with "/"');
  const stripped = raw === "/~api" ? "/" : raw.startsWith("/~api/") ? raw.slice(5) : raw;
  return stripped;
}

/**
 * The tenant API's answer for `apiPath`, fetched as the edge would and rewritten to the proxy's
 * URLs: a 2xx JSON body, or the refusal the endpoint gives.
 */
async function upstreamJson(
  s: Services,
  tenant: Tenant,
  snap: Awaited<ReturnType<typeof buildSnapshot>>,
  apiPath: string,
) {
  if (!snap.api.origin) throw badRequest("Invalid tenant: no API origin is configured");
  const url = joinApiPath(snap.api.origin, apiPath);

  const up = await fetchTenantApi(s, snap, url);
  if (up.kind === "error") throw new ApiError(502, up.code, up.message);
  if (up.status < 200 || up.status > 299) {
    throw new ApiError(502, "upstream_error", `Upstream answered ${up.status}`, {
      upstreamStatus: up.status,
    });
  }
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(up.contentType ?? "")) {
    throw badRequest("Invalid upstream response: not JSON", { contentType: up.contentType });
  }
  const rewritten = rewriteProviderUrls(up.text, {
    snapshot: snap,
    tenantOrigin: proxyBase(s, tenant.slug),
    providerContext: {
      imageHostAssetOrigin: s.config.imageHostAssetOrigin,
      imageHostApiOrigin: s.config.imageHostApiOrigin,
    },
  });
  try {
    JSON.parse(rewritten);
  } catch {
    throw badRequest("Invalid upstream response: body is not valid JSON");
  }
  return { up, rewritten };
}

export async function regenerate(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  input: { profile: string; apiPath: string },
): Promise<RegenerateResult> {
  const apiPath = normaliseApiPath(input.apiPath);
  const snap = await buildSnapshot(s, tenant);
  const withProfile = snap.ai.rules.filter((r) => r.profile === input.profile);
  if (withProfile.length === 0) throw notFound(`Active rules for profile ${input.profile}`);
  const apiBase = apiBaseOf(snap.api.origin);
  if (!withProfile.some((r) => routeMatches(r.routePattern, apiPath, apiBase))) {
    throw new ApiError(
      404,
      "not_found",
      `No active rule of profile ${input.profile} matches ${apiPath}`,
    );
  }
  const { up, rewritten } = await upstreamJson(s, tenant, snap, apiPath);

  const started = performance.now();
  const r = await aiEngineFor(s).runtime({
    tenantId: tenant.id,
    ai: snap.ai,
    profile: input.profile,
    apiPath,
    apiBase,
    body: rewritten,
  });
  const regenVersion = await changeTenant(s, tenant.id, async (tx) => {
    const regenVersion = await bumpRegenVersion(tx, tenant.id, input.profile);
    await recordAudit(tx, {
      tenantId: tenant.id,
      actorUserId,
      action: "ai_transform.regenerated",
      target: `profile:${input.profile}`,
      metadata: { apiPath, regenVersion, status: r.outcome },
    });
    return regenVersion;
  });
  // After commit and projection, outside the transaction: purge that profile's CDN copies.
  await purgeAfterBump(s, tenant.id, { profiles: [input.profile] }, tenant.settings);
  const st = r.stats;
  return {
    profile: input.profile,
    apiPath,
    regenVersion,
    status: r.outcome,
    skipReason: r.skipReason,
    errorCode: r.errorCode,
    stats: {
      rulesEvaluated: st?.rulesEvaluated ?? 0,
      fieldsAttempted: st?.fieldsAttempted ?? 0,
      fieldsTransformed: st?.fieldsTransformed ?? 0,
      fieldsFailed: st?.fieldsFailed ?? 0,
      fieldsCached: st?.fieldsCached ?? 0,
      modelCalls: st?.modelCalls ?? 0,
      inputTokens: st?.inputTokens ?? 0,
      outputTokens: st?.outputTokens ?? 0,
      upstreamStatus: up.status,
      durationMs: Math.round(performance.now() - started),
    },
    body: JSON.parse(r.body),
  };
}
