import { assert, assertEquals } from "../../tests/assert.ts";
import { hashPassword, verifyPassword } from "./password.ts";

Deno.test("passwords are hashed with argon2id at OWASP's minimum cost (m=19 MiB, t=2, p=1)", async () => {
  const hash = await hashPassword("correct horse battery");
  assert(hash.startsWith("$argon2id$v=19$m=19456,t=2,p=1$"), hash);
  assertEquals(await verifyPassword("correct horse battery", hash), true);
  assertEquals(await verifyPassword("correct horse batterx", hash), false);
  assertEquals(await verifyPassword("correct horse battery", "not a hash"), false);
});
