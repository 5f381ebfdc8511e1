/**
 * A fake OpenAI-compatible server on 127.0.0.1: `POST /chat/completions` with a
 * `json_schema` response format, as the real `openai` SDK sends it. Each test
 * programs the reply; every call is recorded (system prompt, items, model).
 */
import { serveOnLoopback } from "../harness.ts";

export type FakeCall = {
  model: string;
  system: string;
  /** The items of the user message's JSON payload. */
  items: string[];
  /** The raw request body. */
  body: Record<string, unknown>;
  authorization: string | null;
};

/** What one call answers. Defaults: 200, `[T] <item>` per item, 100 prompt + 50 completion tokens. */
export type FakeReply = {
  status?: number;
  /** Output items (any JSON values, to test validation). */
  items?: unknown[];
  /** Raw `message.content` (overrides items; for malformed output). */
  content?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Delay before answering (for timeouts); cut short when the server closes. */
  delayMs?: number;
};

export type FakeHandler = (call: FakeCall) => FakeReply | Promise<FakeReply>;

export const defaultTransform = (s: string) => `[T] ${s}`;

export function startFakeOpenAI(handler?: FakeHandler) {
  const calls: FakeCall[] = [];
  let current: FakeHandler = handler ?? (() => ({}));
  const closing = Promise.withResolvers<void>();
  const server = serveOnLoopback(async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
      return Response.json({ error: { message: "not found" } }, { status: 404 });
    }
    const body = await req.json();
    const fmt = body.response_format;
    if (fmt?.type !== "json_schema" || !fmt.json_schema?.schema) {
      return Response.json({ error: { message: "json_schema response_format required" } }, {
        status: 400,
      });
    }
    const system = body.messages?.find((m: { role: string }) => m.role === "system")?.content;
    const user = body.messages?.find((m: { role: string }) => m.role === "user")?.content;
    const items = JSON.parse(user).items as string[];
    const call: FakeCall = {
      model: body.model,
      system,
      items,
      body,
      authorization: req.headers.get("authorization"),
    };
    calls.push(call);
    const reply = await current(call);
    if (reply.delayMs) {
      await Promise.race([new Promise((r) => setTimeout(r, reply.delayMs)), closing.promise]);
    }
    const status = reply.status ?? 200;
    if (status !== 200) {
      return Response.json(
        { error: { message: `fake error ${status}`, type: "fake", code: null } },
        { status, headers: status === 429 ? { "retry-after": "1" } : {} },
      );
    }
    const content = reply.content ??
      JSON.stringify({ items: reply.items ?? items.map(defaultTransform) });
    return Response.json({
      id: `chatcmpl-${calls.length}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{
        index: 0,
        finish_reason: "stop",
        message: { role: "assistant", content, refusal: null },
      }],
      usage: {
        ...(reply.usage ?? { prompt_tokens: 100, completion_tokens: 50 }),
        total_tokens: (reply.usage?.prompt_tokens ?? 100) + (reply.usage?.completion_tokens ?? 50),
      },
    });
  });
  return {
    url: server.url,
    calls,
    /** Replaces the reply program for later calls. */
    program(h: FakeHandler) {
      current = h;
    },
    /** Env for createTestApp so the real SDK talks to this server. */
    env(extra: Record<string, string> = {}): Record<string, string> {
      return {
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: "sk-fake-test-key",
        AI_MODEL: "fake-model",
        ...extra,
      };
    },
    async close() {
      closing.resolve();
      await server.close();
    },
  };
}
