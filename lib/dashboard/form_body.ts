/**
 * Pure helpers of the form bridge: HTML form fields -> the JSON body an API endpoint takes,
 * and an API answer -> the outcome people see. Field names carry their type after a colon
 * (`ttl:number`, `on:bool`, `config:json`, `origin:null`, `cap:numnull`, `tags:list`); dots nest
 * (`variants.0.key` -> `{ variants: [{ key }] }`). Names starting with `_` are the bridge's own;
 * a list item whose `_remove:bool` is true is left out (a "remove" checkbox on a prefilled row).
 */
import type { FormOutcome } from "./flash.ts";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function typed(raw: string, type: string | undefined): Json | undefined {
  switch (type) {
    case "number":
      return raw.trim() === "" ? undefined : Number(raw);
    case "bool":
      return raw === "true" || raw === "on";
    case "json":
      if (raw.trim() === "") return undefined;
      try {
        return JSON.parse(raw);
      } catch {
        throw new FormFieldError("Not valid JSON");
      }
    case "numnull":
      return raw.trim() === "" ? null : Number(raw);
    case "null":
      return raw.trim() === "" ? null : raw.trim();
    case "list":
      return raw.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
    default:
      return raw === "" ? undefined : raw;
  }
}

export class FormFieldError extends Error {
  field = "";
}

/** Builds the JSON body from form entries; for repeated names the last value wins. */
export function formToJson(entries: Iterable<[string, string]>): Record<string, Json> {
  const last = new Map<string, string>();
  for (const [name, value] of entries) if (!name.startsWith("_")) last.set(name, value);
  const out: Record<string, Json> = {};
  for (const [name, raw] of last) {
    const [path, type] = name.split(":", 2);
    let value: Json | undefined;
    try {
      value = typed(raw, type);
    } catch (e) {
      if (e instanceof FormFieldError) e.field = path;
      throw e;
    }
    if (value !== undefined) setPath(out, path.split("."), value);
  }
  return compactArrays(out) as Record<string, Json>;
}

function setPath(target: Record<string, Json>, keys: string[], value: Json): void {
  let node: Record<string, Json> = target;
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i];
    if (k === "__proto__" || k === "constructor" || k === "prototype") return;
    node[k] ??= {};
    node = node[k] as Record<string, Json>;
  }
  const k = keys[keys.length - 1];
  if (k === "__proto__" || k === "constructor" || k === "prototype") return;
  node[k] = value;
}

const REMOVE = "_remove";

/**
 * Objects whose keys are all indexes become arrays (in index order, gaps dropped, items
 * marked `_remove: true` dropped); the `_remove` marker itself never reaches the API.
 */
function compactArrays(v: Json): Json {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
  const keys = Object.keys(v).filter((k) => k !== REMOVE);
  const mapped = Object.fromEntries(keys.map((k) => [k, compactArrays(v[k])]));
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.map(Number).sort((a, b) => a - b)
      .filter((k) => !removed(v[String(k)]))
      .map((k) => mapped[String(k)]);
  }
  return mapped;
}

function removed(item: Json): boolean {
  return item !== null && typeof item === "object" && !Array.isArray(item) &&
    item[REMOVE] === true;
}

function valueAt(body: unknown, path: string): unknown {
  let v: unknown = body;
  for (const k of path.split(".")) v = (v as Record<string, unknown> | null)?.[k];
  return v;
}

/** The value at a dotted path of an answer, for people: booleans as yes/no, "" when absent. */
export function pickText(body: unknown, path: string): string {
  const v = valueAt(body, path);
  if (v === undefined || v === null) return "";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** `{key}` placeholders filled from the answer. */
export function fillTemplate(template: string, body: unknown, extra: Record<string, string> = {}) {
  return template.replace(/\{([\w.]+)\}/g, (_, k: string) => extra[k] ?? pickText(body, k));
}

export type BridgeMeta = {
  done?: string;
  reveal?: string;
  revealLabel?: string;
  revealPrefix?: string;
  /** `path=value`: a 2xx answer counts as success only when that key has that value
   * (a domain verification that ends `failed`, a website check answering `ok:false`). */
  expect?: string;
  /** Message when `expect` does not hold; `{key}` placeholders as in `done`. */
  fail?: string;
};

/** What the person sees for an API answer: never raw JSON, the refused fields named. */
export function outcomeFrom(
  status: number,
  body: unknown,
  meta: BridgeMeta,
  origin: string,
): FormOutcome {
  if (status >= 200 && status < 300 && meta.expect) {
    const [path, want] = meta.expect.split("=", 2);
    if (String(valueAt(body, path)) !== want) {
      const why = meta.fail ? fillTemplate(meta.fail, body, { origin }) : `${path} is not ${want}`;
      return { ok: false, message: why };
    }
  }
  if (status >= 200 && status < 300) {
    const out: FormOutcome = {
      ok: true,
      message: meta.done ? fillTemplate(meta.done, body, { origin }) : "Saved",
    };
    const secret = meta.reveal ? pickText(body, meta.reveal) : "";
    if (secret) {
      const prefix = fillTemplate(meta.revealPrefix ?? "", body, { origin });
      out.reveal = { label: meta.revealLabel ?? meta.reveal!, value: prefix + secret };
    }
    return out;
  }
  const err = (body as { error?: { message?: unknown; details?: { fields?: unknown } } } | null)
    ?.error;
  const message = typeof err?.message === "string"
    ? err.message
    : status === 0
    ? "The server could not be reached"
    : `The request failed (${status})`;
  const fields: Record<string, string> = {};
  if (Array.isArray(err?.details?.fields)) {
    for (const f of err.details.fields as { path?: unknown; message?: unknown }[]) {
      if (typeof f.path === "string" && typeof f.message === "string") fields[f.path] = f.message;
    }
  }
  const out: FormOutcome = Object.keys(fields).length
    ? { ok: false, message, fields }
    : { ok: false, message };
  const planPage = (err?.details as { planPage?: unknown } | undefined)?.planPage;
  if (typeof planPage === "string" && planPage.startsWith("/")) {
    out.link = { href: planPage, label: "See the plans" };
  }
  return out;
}
