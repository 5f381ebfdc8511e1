/** A small structured logger: one JSON line per entry. Callers never pass secrets in fields. */
export type LogLevel = "debug" | "info" | "warn" | "error";
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const satisfies readonly LogLevel[];
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

export function createLogger(level: LogLevel, sink: (line: string) => void = console.log): Logger {
  const emit = (l: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[l] < ORDER[level]) return;
    sink(JSON.stringify({ t: new Date().toISOString(), level: l, msg, ...redactFields(fields) }));
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

// A failed Drizzle query's message (and so its stack) is "Failed query: <sql>\nparams: <values>",
// and the values are user data: emails, password hashes, tokens. They never reach a log line.
const QUERY_PARAMS = /\nparams: [\s\S]*?(?=\n\s+at |$)/g;

/** A log string with the bound values of a failed query replaced by `[redacted]`. */
export function redactQueryParams(v: string): string {
  return v.includes("\nparams: ") ? v.replace(QUERY_PARAMS, "\nparams: [redacted]") : v;
}

function redactFields(fields?: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!fields) return fields;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v !== "string" || !v.includes("\nparams: ")) continue;
    out ??= { ...fields };
    out[k] = redactQueryParams(v);
  }
  return out ?? fields;
}

/** One captured log line, as GET /api/admin/logs shows it. */
export type LogEntry = {
  seq: number;
  t: string;
  level: LogLevel;
  msg: string;
  fields: Record<string, unknown>;
};

export const LOG_LEVEL_ORDER = ORDER;

/** How many recent entries the ring keeps (per process). */
export const LOG_RING_CAPACITY = 1000;

// Fields never kept in the ring, whatever a caller passed: stacks are noise for an
// operator view, and credential-like names are redacted as a second line of defence.
const DROPPED_FIELDS = new Set(["stack"]);
const SECRET_FIELD = /token|secret|password|authorization|cookie|api_?key|credential/i;
const MAX_FIELD_CHARS = 500;

/** A bounded in-memory ring of recent log entries, newest last; seq grows from 1. */
export class LogRing {
  #entries: LogEntry[] = [];
  #seq = 0;
  constructor(readonly capacity = LOG_RING_CAPACITY) {}

  push(t: number, level: LogLevel, msg: string, fields?: Record<string, unknown>): LogEntry {
    const entry: LogEntry = {
      seq: ++this.#seq,
      t: new Date(t).toISOString(),
      level,
      msg,
      fields: scrubFields(fields),
    };
    this.#entries.push(entry);
    if (this.#entries.length > this.capacity) this.#entries.shift();
    return entry;
  }

  /** Entries newest first (copies of the array, entries are treated as immutable). */
  newestFirst(): LogEntry[] {
    return this.#entries.slice().reverse();
  }

  get lastSeq(): number {
    return this.#seq;
  }
}

function scrubFields(fields?: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields ?? {})) {
    if (DROPPED_FIELDS.has(k)) continue;
    if (SECRET_FIELD.test(k)) out[k] = "[redacted]";
    else if (typeof v === "string") {
      const r = redactQueryParams(v);
      out[k] = r.length > MAX_FIELD_CHARS ? r.slice(0, MAX_FIELD_CHARS) + "\u2026" : r;
    } else out[k] = v;
  }
  return out;
}

/**
 * Wraps a logger so every entry at or above `level` is also kept in `ring`
 * (the wrapped logger still decides what it prints).
 */
export function withLogRing(
  inner: Logger,
  ring: LogRing,
  level: LogLevel,
  now: () => number = Date.now,
): Logger {
  const wrap = (l: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[l] >= ORDER[level]) ring.push(now(), l, msg, fields);
    inner[l](msg, fields);
  };
  return { debug: wrap("debug"), info: wrap("info"), warn: wrap("warn"), error: wrap("error") };
}
