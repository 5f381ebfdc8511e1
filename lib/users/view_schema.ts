/**
 * The response shape of `publicUser` (lib/users/mod.ts), for the route declarations and the
 * OpenAPI document. Kept next to the builder so a field added there and not here fails the
 * tests (response validation is on in tests/harness.ts).
 */
import { z } from "zod";
import { str } from "../http/text.ts";

export const publicUserSchema = z.strictObject({
  id: str(),
  email: str(),
  name: str().nullable(),
  isAdmin: z.boolean().describe("Master admin (ADMIN_EMAILS or granted by the CLI)"),
  emailVerified: z.boolean().describe(
    "False until the owner follows the mailed link, or proves the address another way",
  ),
  createdAt: str().describe("ISO 8601 time"),
});
