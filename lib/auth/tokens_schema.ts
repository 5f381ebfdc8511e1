/**
 * Personal access tokens as /api/user/tokens answers them (tokens.ts builds them and is
 * typed from these schemas). The raw token appears once, in the creation answer.
 */
import { z } from "zod";
import { isoTime } from "../http/shapes.ts";

export const personalTokenSchema = z.strictObject({
  id: z.number().int().positive(),
  name: z.string(),
  createdAt: isoTime,
  lastUsedAt: isoTime.nullable(),
});
export type PersonalToken = z.infer<typeof personalTokenSchema>;

/** GET /api/user/tokens. */
export const tokensListSchema = z.strictObject({ tokens: z.array(personalTokenSchema) });

export const createdTokenSchema = z.strictObject({
  id: z.number().int().positive(),
  name: z.string(),
  token: z.string(),
  createdAt: isoTime,
});
export type CreatedToken = z.infer<typeof createdTokenSchema>;
