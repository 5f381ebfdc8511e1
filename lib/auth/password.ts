/** argon2id password hashes (hash-wasm: pure WASM, runs on Deno Deploy). */

let hashWasm: Promise<typeof import("hash-wasm")> | undefined;
/** hash-wasm is imported with the first hash, not at start-up (most requests never log in). */
const loadHashWasm = () => hashWasm ??= import("hash-wasm");

// OWASP's minimum for argon2id: m=19 MiB, t=2, p=1 (about 50 ms here).
const PARAMS = { iterations: 2, memorySize: 19_456, parallelism: 1, hashLength: 32 };
let params = PARAMS;

/**
 * Tests only (tests/harness.ts): argon2id at t=1, m=64 KiB. The suite signs up thousands of
 * users; at the real cost that was minutes of CPU spent on no assertion. A hash carries its
 * own cost, so verifying works either way; lib/auth/password_test.ts checks the real one.
 */
export function cheapPasswordHashesForTests(): void {
  params = { ...PARAMS, iterations: 1, memorySize: 64 };
}

export async function hashPassword(password: string): Promise<string> {
  const { argon2id } = await loadHashWasm();
  return await argon2id({
    ...params,
    password,
    salt: crypto.getRandomValues(new Uint8Array(16)),
    outputType: "encoded",
  });
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const { argon2Verify } = await loadHashWasm();
  try {
    return await argon2Verify({ password, hash: encoded });
  } catch {
    return false;
  }
}

/** The password policy. Returns the rule a password breaks, or null. */
export function passwordPolicyViolation(password: string, email?: string): string | null {
  if (password.length < 10) return "Password must be at least 10 characters";
  if (password.length > 200) return "Password must be at most 200 characters";
  if (
    email && password.toLowerCase().includes(email.toLowerCase().split("@")[0]) &&
    email.split("@")[0].length >= 4
  ) {
    return "Password must not contain the email name";
  }
  if (new Set(password).size < 4) return "Password must use at least 4 different characters";
  return null;
}
