/**
 * Response shapes of the two implementation checks: `CachelyCheckResult`
 * (lib/checks/cachely_check.ts) and `WebsiteCheckResult` (lib/checks/website_check.ts).
 * Kept next to them; response validation in the tests checks they agree
 * (docs/architecture.md "Declaring an API route").
 */
import { z } from "zod";
import { PLATFORMS } from "./platform.ts";

const probeSchema = z.strictObject({
  url: z.string(),
  status: z.number().int().nullable().describe("null when no response arrived"),
  ok: z.boolean(),
  headers: z.record(z.string(), z.string()).describe("The x-cachely-* response headers"),
  error: z.enum(["refused", "timeout", "unreachable"]).optional(),
});

export const cachelyCheckResultSchema = z.strictObject({
  state: z.enum(["implemented", "active_needs_attention", "not_detected", "not_enabled"]),
  headline: z.string(),
  probeUrl: z.string().nullable(),
  surfaceLabel: z.enum(["production", "preview"]).nullable(),
  items: z.array(z.strictObject({
    id: z.string(),
    label: z.string(),
    state: z.enum(["pass", "warn", "fail", "info", "skipped"]),
    detail: z.string(),
  })),
  probes: z.array(probeSchema),
});

const analysisSchema = z.strictObject({
  cachelyUsage: z.enum(["detected", "not_detected", "inconclusive"]),
  cachelySignals: z.array(z.strictObject({
    type: z.enum(["tenant_host", "api_path", "asset_path", "client_library"]),
    context: z.string().describe(
      "Where in the page: img, link, css_url, inline_script, page \u2026",
    ),
    where: z.string(),
    evidence: z.string(),
  })),
  directCmsUsage: z.enum(["detected", "potential", "not_detected"]),
  directCmsSignals: z.array(z.strictObject({
    host: z.string(),
    context: z.string(),
    where: z.string(),
    resource: z.boolean().describe("In a rendered resource context (direct usage)"),
    evidence: z.string(),
  })),
  cmsLabel: z.string(),
  verdictState: z.enum(["implemented", "mixed", "not_using", "inconclusive"]),
  verdict: z.string(),
});

export const websiteCheckResultSchema = z.union([
  z.strictObject({
    ok: z.literal(true),
    finalUrl: z.string(),
    platform: z.enum(PLATFORMS),
    analysis: analysisSchema,
  }),
  z.strictObject({
    ok: z.literal(false),
    finalUrl: z.string(),
    error: z.enum([
      "unsafe_url",
      "timeout",
      "fetch_failed",
      "too_many_redirects",
      "bad_redirect",
      "http_error",
      "not_html",
    ]),
    message: z.string(),
  }).describe("The site could not be fetched or is not HTML (not a thrown error)"),
]);
