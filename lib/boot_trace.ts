/**
 * Start-up phases for bench/cold_start.ts: with CACHELY_BOOT_TRACE=1 the process writes one
 * JSON line to stderr after its first answer, `{"boot":{mark: ms, ...}}`, each mark the time
 * since the runtime's time origin (performance.now()). main.ts imports this module first,
 * so its own mark `evaluate` is when the module graph has loaded and evaluation begins.
 * Off (the default) it costs one environment read.
 */
let marks: [string, number][] | null = null;
try {
  if (Deno.env.get("CACHELY_BOOT_TRACE") === "1") marks = [];
} catch { /* no env permission: off */ }

export function bootMark(name: string): void {
  marks?.push([name, Math.round(performance.now() * 10) / 10]);
}

bootMark("evaluate");

/**
 * `handler`, which (tracing) marks its first request and writes the marks after its answer.
 * Two declared parameters: Deno.serve passes a handler of length 0 no request.
 */
export function traceFirstAnswer<R>(
  handler: (req: Request, info: Deno.ServeHandlerInfo) => R | Promise<R>,
): (req: Request, info: Deno.ServeHandlerInfo) => R | Promise<R> {
  if (!marks) return handler;
  let first = true;
  return (req, info) => {
    if (!first) return handler(req, info);
    first = false;
    bootMark("request");
    return Promise.resolve(handler(req, info)).finally(() => {
      bootMark("answer");
      console.error(JSON.stringify({ boot: Object.fromEntries(marks ?? []) }));
      marks = null;
    });
  };
}
