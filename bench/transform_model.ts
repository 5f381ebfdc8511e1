/**
 * A fake OpenAI-compatible model for the transform benchmark: a loopback
 * `/chat/completions` answering every json_schema request with `[T] <item>` per
 * item after a fixed delay (a stand-in for real model latency), counting calls.
 * Unref'd, so it never keeps the benchmark process alive.
 */
export type BenchModel = { url: string; calls(): number };

export function startBenchModel(delayMs = 50): BenchModel {
  let calls = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    calls++;
    const user = body.messages.find((m: { role: string }) => m.role === "user").content;
    const items = (JSON.parse(user).items as string[]).map((s) => `[T] ${s}`);
    await new Promise((r) => setTimeout(r, delayMs));
    return Response.json({
      id: `bench-${calls}`,
      object: "chat.completion",
      created: 0,
      model: body.model,
      choices: [{
        index: 0,
        finish_reason: "stop",
        message: { role: "assistant", content: JSON.stringify({ items }), refusal: null },
      }],
      usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
    });
  });
  server.unref();
  return { url: `http://127.0.0.1:${server.addr.port}`, calls: () => calls };
}
