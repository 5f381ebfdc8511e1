/**
 * One model call per rule per response: all values in one JSON array, a JSON-schema
 * response format, and validation of what comes back (same count, strings only,
 * length bound). Anything invalid counts as a failed field, never as output.
 */
import type OpenAI from "openai";
import type { Config } from "../config.ts";
import { responseSchema, systemMessage } from "./presets.ts";
import type { AiRuleSnapshot } from "./snapshot_types.ts";

/** Why a whole model call failed; also used as per-field error and run reason. */
export type ModelErrorCode =
  | "model_timeout"
  | "model_rate_limited"
  | "model_error"
  | "malformed_output";

export type ModelResult = {
  /** One entry per input value: the output, or null when that value failed. */
  outputs: (string | null)[];
  /** Per-value error code for failed values (null where the output is valid). */
  errors: (string | null)[];
  /** Set when the call as a whole failed (then every output is null). */
  error: ModelErrorCode | null;
  inputTokens: number;
  outputTokens: number;
};

export type RuleConfig = Pick<
  AiRuleSnapshot,
  "presetId" | "tone" | "targetLanguage" | "customInstruction" | "constraints" | "example"
>;

/** What the pipeline needs from a model; the real one talks to an OpenAI-compatible API. */
export type ModelClient = {
  model: string;
  transform(rule: RuleConfig, values: string[], maxChars: number): Promise<ModelResult>;
};

let openai: Promise<typeof import("openai")> | undefined;
/** The openai SDK, imported once on first use (a literal specifier: Deno Deploy resolves it). */
const loadOpenAI = () => openai ??= import("openai");

/** Null when no model is configured (no OPENAI_API_KEY): runtime passes through, preview refuses. */
export function createModelClient(
  config: Config,
  fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis),
): ModelClient | null {
  const { apiKey, baseUrl, model, timeoutMs } = config.openai;
  if (!apiKey) return null;
  // The SDK is loaded with the first model call, not at start-up (cold start, resident memory).
  let client: Promise<OpenAI> | undefined;
  const connect = async () => {
    const { default: OpenAI } = await loadOpenAI();
    return new OpenAI({
      apiKey,
      baseURL: baseUrl,
      timeout: timeoutMs,
      // Runtime is fail-open and the visitor is waiting: no retries, one call per rule.
      maxRetries: 0,
      fetch: fetchImpl,
    });
  };
  return {
    model,
    async transform(rule, values, maxChars) {
      const failAll = (error: ModelErrorCode, inT = 0, outT = 0): ModelResult => ({
        outputs: values.map(() => null),
        errors: values.map(() => error),
        error,
        inputTokens: inT,
        outputTokens: outT,
      });
      let completion;
      try {
        completion = await (await (client ??= connect())).chat.completions.create({
          model,
          temperature: 0.2,
          messages: [
            { role: "system", content: systemMessage(rule, maxChars) },
            { role: "user", content: JSON.stringify({ items: values }) },
          ],
          response_format: {
            type: "json_schema",
            json_schema: {
              name: "transformed_items",
              strict: true,
              schema: responseSchema(values.length),
            },
          },
        });
      } catch (e) {
        return failAll(await classify(e));
      }
      const inT = completion.usage?.prompt_tokens ?? 0;
      const outT = completion.usage?.completion_tokens ?? 0;
      const content = completion.choices?.[0]?.message?.content;
      const parsed = parseItems(content);
      if (!parsed || parsed.length !== values.length) {
        return failAll("malformed_output", inT, outT);
      }
      const outputs: (string | null)[] = [];
      const errors: (string | null)[] = [];
      for (const item of parsed) {
        if (typeof item !== "string") {
          outputs.push(null);
          errors.push("not_a_string");
        } else if (item.length > maxChars) {
          outputs.push(null);
          errors.push("output_too_long");
        } else if (item.trim() === "") {
          outputs.push(null);
          errors.push("empty_output");
        } else {
          outputs.push(item);
          errors.push(null);
        }
      }
      return { outputs, errors, error: null, inputTokens: inT, outputTokens: outT };
    },
  };
}

function parseItems(content: unknown): unknown[] | null {
  if (typeof content !== "string") return null;
  try {
    const v = JSON.parse(content);
    return v && typeof v === "object" && Array.isArray(v.items) ? v.items : null;
  } catch {
    return null;
  }
}

async function classify(e: unknown): Promise<ModelErrorCode> {
  const OpenAI = (await loadOpenAI().catch(() => null))?.default;
  if (OpenAI && e instanceof OpenAI.APIConnectionTimeoutError) return "model_timeout";
  if (OpenAI && e instanceof OpenAI.RateLimitError) return "model_rate_limited";
  return "model_error";
}
