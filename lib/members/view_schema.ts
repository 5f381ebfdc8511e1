/**
 * Response shapes of the member and invite views (`MemberView` in lib/members/service.ts,
 * `InviteView` in lib/members/invites.ts). Kept next to the builders; response validation in
 * the tests checks they agree (docs/architecture.md "Declaring an API route").
 */
import { z } from "zod";
import { ROLES } from "../base/roles.ts";
import { isoTime } from "../base/shapes.ts";

export const memberViewSchema = z.strictObject({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(ROLES),
  createdAt: isoTime,
  updatedAt: isoTime,
});

export const inviteViewSchema = z.strictObject({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(ROLES),
  expiresAt: isoTime,
  createdAt: isoTime,
});

/** A created or refreshed invite: the token is shown this once (and mailed). */
export const createdInviteSchema = inviteViewSchema.extend({
  token: z.string().describe("Shown once; only its SHA-256 is stored"),
  emailSent: z.boolean(),
});
