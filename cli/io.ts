/** The CLI's I/O on a real process: stdout, stderr, stdin, and prompts on the terminal. */
import type { Io } from "./command.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

async function readLine(): Promise<string> {
  const buf = new Uint8Array(1);
  const bytes: number[] = [];
  while (true) {
    const n = await Deno.stdin.read(buf);
    if (n === null || buf[0] === 10) break;
    if (buf[0] === 3) throw new Error("Interrupted"); // Ctrl-C in raw mode
    if (buf[0] === 127 || buf[0] === 8) {
      bytes.pop();
      continue;
    }
    if (buf[0] !== 13) bytes.push(buf[0]);
    else break;
  }
  return dec.decode(new Uint8Array(bytes));
}

export function denoIo(): Io {
  return {
    env: { get: (name) => Deno.env.get(name) },
    out: (text) => Deno.stdout.writeSync(enc.encode(text + "\n")),
    err: (text) => Deno.stderr.writeSync(enc.encode(text + "\n")),
    async readStdin() {
      return await new Response(Deno.stdin.readable).text();
    },
    stdinIsTerminal: () => Deno.stdin.isTerminal(),
    async prompt(question, secret = false) {
      Deno.stderr.writeSync(enc.encode(question));
      if (!secret) return await readLine();
      Deno.stdin.setRaw(true);
      try {
        return await readLine();
      } finally {
        Deno.stdin.setRaw(false);
        Deno.stderr.writeSync(enc.encode("\n"));
      }
    },
  };
}
