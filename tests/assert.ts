/** std-style assertions over node:assert/strict (JSR's @std/assert is unreachable here). */
import nodeAssert from "node:assert/strict";

export function assert(cond: unknown, msg?: string): asserts cond {
  nodeAssert.ok(cond, msg);
}
export function assertEquals<T>(actual: unknown, expected: T, msg?: string): asserts actual is T {
  nodeAssert.deepStrictEqual(actual, expected, msg);
}
export function assertNotEquals(actual: unknown, expected: unknown, msg?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, msg);
}
export function assertMatch(actual: string, re: RegExp, msg?: string): void {
  nodeAssert.match(actual, re, msg);
}
export function assertStringIncludes(actual: string, part: string, msg?: string): void {
  nodeAssert.ok(
    actual.includes(part),
    msg ?? `expected ${JSON.stringify(actual)} to include ${JSON.stringify(part)}`,
  );
}
export async function assertRejects(fn: () => Promise<unknown>, msg?: string): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new nodeAssert.AssertionError({ message: msg ?? "expected the promise to reject" });
}
export function assertThrows(fn: () => unknown, msg?: string): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new nodeAssert.AssertionError({ message: msg ?? "expected the function to throw" });
}
