/**
 * The response shape of `domainView` (lib/domains/service.ts): one custom domain with the DNS
 * records that verify it. Kept next to the builder; response validation in the tests checks
 * the two agree (docs/architecture.md "Declaring an API route").
 */
import { z } from "zod";
import { isoTime } from "../base/shapes.ts";

const dnsRecord = (target: "value" | "target") =>
  z.strictObject({ name: z.string(), [target]: z.string() });

export const domainViewSchema = z.strictObject({
  id: z.number().int(),
  hostname: z.string(),
  status: z.enum(["pending", "active", "failed", "suspended"]),
  failureReason: z.string().nullable(),
  verification: z.strictObject({
    txt: dnsRecord("value").describe("TXT record proving ownership"),
    cname: dnsRecord("target").describe("CNAME that routes the domain to the tenant"),
  }),
  verifiedAt: isoTime.nullable(),
  lastCheckedAt: isoTime.nullable(),
  createdAt: isoTime,
});
