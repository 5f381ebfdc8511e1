/**
 * Shared by the per-area security tests: a list of requests that must each be refused
 * with a given status in the one error shape, and for a 400 the field it names.
 */
import { assert, assertEquals } from "./assert.ts";
import type { Client } from "./harness.ts";

export type Refusal = {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  status: number;
  /** For a 400: the field the error must name. */
  field?: string;
};

/** A string one character over `max`. */
export const over = (max: number) => "x".repeat(max + 1);

/** Sends each case and checks status, error shape and the named field. */
export async function expectRefusals(c: Client, cases: Refusal[]): Promise<void> {
  for (const x of cases) {
    const label = `${x.method} ${x.path} ${JSON.stringify(x.body)?.slice(0, 80)}`;
    const r = await c.request(x.method, x.path, x.body, x.headers);
    assertEquals(r.status, x.status, `${label}: ${r.text.slice(0, 200)}`);
    const e = r.body?.error;
    assert(typeof e?.code === "string" && typeof e?.message === "string", `${label}: error shape`);
    if (x.field !== undefined) {
      const named = e.details?.fields?.[0]?.path ?? /^Invalid ([\w.]+)/.exec(e.message)?.[1];
      assertEquals(named, x.field, `${label}: ${e.message}`);
    }
  }
}

/** True when `needle` occurs anywhere in the serialized response body. */
export function echoes(body: unknown, needle: string): boolean {
  return JSON.stringify(body ?? "").includes(needle);
}
