/**
 * The response shape of `publicUser` (lib/users/mod.ts), for the route declarations and the
 * OpenAPI document. Kept next to the builder so a field added there and not here fails the
 * tests (response validation is on in tests/harness.ts).
 */
import { z } from "zod";

export const publicUserSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  isAdmin: z.boolean().describe("Master admin (ADMIN_EMAILS or granted by the CLI)"),
  emailVerified: z.boolean().describe(
    "False until the owner follows the mailed link, or proves the address another way",
  ),
  createdAt: z.string().describe("ISO 8601 time"),
});
