/** Small response pieces many route declarations share (lib/http/route.ts `response`). */
import { z } from "zod";
import { str } from "./text.ts";

/** A time as the API answers it: `Date.toISOString()`. */
export const isoTime = str().describe("ISO 8601 time (UTC)");

/** `{ ok: true }`: the answer of an action with nothing else to report. */
export const okSchema = z.strictObject({ ok: z.literal(true) });

/** A non-negative integer: counts, bytes, tokens. */
export const count = z.number().int().nonnegative();
