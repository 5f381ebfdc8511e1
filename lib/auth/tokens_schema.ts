/**
 * Personal access tokens as /api/user/tokens answers them (tokens.ts builds them and is
 * typed from these schemas). The raw token appears once, in the creation answer.
 */
import { z } from "zod";
import { isoTime } from "../base/shapes.ts";
import { TOKEN_SCOPES } from "./token_scopes.ts";

export const tokenScopeSchema = z.enum(TOKEN_SCOPES);

export const personalTokenSchema = z.strictObject({
  id: z.number().int().positive(),
  name: z.string(),
  scopes: z.array(tokenScopeSchema),
  createdAt: isoTime,
  expiresAt: isoTime.nullable(),
  lastUsedAt: isoTime.nullable(),
});
export type PersonalToken = z.infer<typeof personalTokenSchema>;

/** GET /api/user/tokens. */
export const tokensListSchema = z.strictObject({ tokens: z.array(personalTokenSchema) });

export const createdTokenSchema = personalTokenSchema.extend({ token: z.string() });
export type CreatedToken = z.infer<typeof createdTokenSchema>;
