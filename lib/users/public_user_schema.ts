/**
 * The signed-in user as the API shows them (publicUser() in mod.ts, which is typed from
 * this schema): answered by /api/auth/me, sign-up, login and PATCH /api/user/profile.
 */
import { z } from "zod";
import { isoTime } from "../base/shapes.ts";

export const publicUserSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  isAdmin: z.boolean().describe("Master admin (ADMIN_EMAILS or granted by the CLI)"),
  emailVerified: z.boolean().describe(
    "False until the owner follows the mailed link, or proves the address another way",
  ),
  createdAt: isoTime,
});
export type PublicUser = z.infer<typeof publicUserSchema>;
