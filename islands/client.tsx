/**
 * Browser entry (one module script, no inline code: CSP-friendly). It
 * 1. hydrates every `[data-island]` with its JSON props;
 * 2. enhances every `form[data-form]` (components/ApiForm.tsx): confirmation, progress and
 *    no double submit, the outcome in the aria-live region, refused fields marked in place,
 *    then re-fetches the page and swaps `#content` so it shows the server's state;
 * 3. shows `<time data-local>` in the viewer's time zone (UTC stays in the title);
 * 4. makes `[data-copy]` buttons copy their value.
 */
import { type FunctionComponent, hydrate, render } from "preact";
import { type IslandName, ISLANDS } from "./registry.ts";
import { Notice } from "./Notice.tsx";
import type { FormOutcome } from "../lib/dashboard/flash.ts";

function hydrateIslands(root: ParentNode) {
  for (const el of root.querySelectorAll<HTMLElement>("[data-island]")) {
    const Component = ISLANDS[el.dataset.island as IslandName] as
      | FunctionComponent<Record<string, unknown>>
      | undefined;
    if (!Component) continue;
    hydrate(<Component {...JSON.parse(el.dataset.props ?? "{}")} />, el);
  }
}

function localTimes(root: ParentNode) {
  const fmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  for (const el of root.querySelectorAll<HTMLTimeElement>("time[data-local]")) {
    const d = new Date(el.dateTime);
    if (!Number.isNaN(d.getTime())) el.textContent = fmt.format(d);
  }
}

/** Shows an outcome in the page's aria-live region (and scrolls it into view). */
export function announce(outcome: FormOutcome) {
  const region = document.getElementById("announce");
  if (!region) return;
  render(null, region);
  region.textContent = "";
  render(<Notice outcome={outcome} />, region);
  region.scrollIntoView({ block: "nearest" });
  // Keyboard users continue from the outcome (the form they used may have been re-rendered),
  // unless a refused field already took focus.
  const notice = region.firstElementChild as HTMLElement | null;
  if (notice && !document.activeElement?.matches("[aria-invalid=true]")) {
    notice.tabIndex = -1;
    notice.focus({ preventScroll: true });
  }
}

function markFields(form: HTMLFormElement, fields: Record<string, string> | undefined) {
  for (const old of form.querySelectorAll(".field-error")) old.remove();
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  let first: HTMLElement | null = null;
  for (const [path, why] of Object.entries(fields ?? {})) {
    const input = [...form.elements].find((el) =>
      (el as HTMLInputElement).name?.split(":")[0] === path &&
      (el as HTMLInputElement).type !== "hidden"
    ) as HTMLInputElement | undefined;
    if (!input) continue;
    input.setAttribute("aria-invalid", "true");
    const msg = document.createElement("span");
    msg.className = "field-error";
    msg.id = `${input.id || path}-error`;
    msg.textContent = why;
    input.insertAdjacentElement("afterend", msg);
    input.setAttribute(
      "aria-describedby",
      `${input.getAttribute("aria-describedby") ?? ""} ${msg.id}`.trim(),
    );
    first ??= input;
  }
  first?.focus();
}

/** Re-renders the page's content from the server, keeping the announcement region. */
async function refreshContent() {
  const res = await fetch(location.href, {
    credentials: "same-origin",
    headers: { accept: "text/html" },
  });
  if (res.redirected && new URL(res.url).pathname === "/login") {
    location.assign(res.url);
    return;
  }
  if (!res.ok) return;
  const doc = new DOMParser().parseFromString(await res.text(), "text/html");
  const fresh = doc.getElementById("content");
  const here = document.getElementById("content");
  if (!fresh || !here) return;
  here.replaceWith(fresh);
  hydrateIslands(fresh);
  localTimes(fresh);
}

const busyForms = new WeakSet<HTMLFormElement>();

async function submitForm(form: HTMLFormElement, submitter: HTMLButtonElement | null) {
  if (busyForms.has(form)) return;
  const question = form.dataset.confirm;
  if (question && !globalThis.confirm(question)) return;
  busyForms.add(form);
  const button = submitter ?? form.querySelector<HTMLButtonElement>("button[type=submit]");
  const label = button?.textContent ?? "";
  if (button) {
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    button.textContent = button.dataset.busy ?? "Working\u2026";
  }
  const data = new URLSearchParams();
  for (const [k, v] of new FormData(form)) if (typeof v === "string") data.append(k, v);
  if (question) data.set("_confirmed", "1");
  let reply: { status: number; outcome: FormOutcome; next?: string };
  try {
    const res = await fetch(form.action, {
      method: "POST",
      credentials: "same-origin",
      headers: { accept: "application/json" },
      body: data,
    });
    reply = res.headers.get("content-type")?.includes("json") ? await res.json() : {
      status: res.status,
      outcome: { ok: false, message: `The server answered ${res.status}` },
    };
  } catch (e) {
    reply = {
      status: 0,
      outcome: {
        ok: false,
        message: `Network error: ${(e as Error).message}. Check your connection and try again.`,
      },
    };
  }
  busyForms.delete(form);
  if (button) {
    button.disabled = false;
    button.removeAttribute("aria-busy");
    button.textContent = label;
  }
  if (reply.status === 401) {
    location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
    return;
  }
  if (reply.outcome.ok && reply.next) {
    location.assign(reply.next);
    return;
  }
  form.nextElementSibling?.classList.contains("form-error") && form.nextElementSibling.remove();
  if (reply.outcome.ok) await refreshContent();
  else {
    markFields(form, reply.outcome.fields);
    // The refusal also right where the person acted (the announcement is at the top).
    const why = document.createElement("p");
    why.className = "form-error error";
    why.textContent = reply.outcome.message;
    form.insertAdjacentElement("afterend", why);
  }
  announce(reply.outcome);
}

document.addEventListener("submit", (e) => {
  const form = e.target as HTMLFormElement;
  if (!form.matches("form[data-form]")) return;
  e.preventDefault();
  submitForm(form, (e as SubmitEvent).submitter as HTMLButtonElement | null);
});

document.addEventListener("click", async (e) => {
  const button = (e.target as Element).closest<HTMLButtonElement>("button[data-copy]");
  if (!button) return;
  try {
    await navigator.clipboard.writeText(button.dataset.copy ?? "");
    button.textContent = "Copied";
  } catch {
    button.textContent = "Select and copy";
  }
});

// A GET form marked data-autosubmit (the new-tenant CMS picker) goes as soon as its select
// changes; without JavaScript its own button does it. Each hidden input marked
// data-carry="<name>" first takes the value of the field of that name in the section's other
// form (the typed slug), so the reload keeps what was typed.
document.addEventListener("change", (e) => {
  const select = e.target as HTMLSelectElement;
  const form = select.form;
  if (select.tagName !== "SELECT" || !form?.matches("form[data-autosubmit]")) return;
  for (const carry of form.querySelectorAll<HTMLInputElement>("input[data-carry]")) {
    const from = form.closest("section")?.querySelector<HTMLInputElement>(
      `form:not([data-autosubmit]) input[name="${carry.dataset.carry}"]`,
    );
    if (from) carry.value = from.value;
  }
  form.submit();
});

// A select marked data-follows="<name>" takes the value its data-follow-values map gives for
// the new value of the form's select <name> (a webhook's scope follows its provider).
document.addEventListener("change", (e) => {
  const changed = e.target as HTMLSelectElement;
  if (changed.tagName !== "SELECT" || !changed.form || !changed.name) return;
  for (const follower of changed.form.querySelectorAll<HTMLSelectElement>("select[data-follows]")) {
    if (follower.dataset.follows !== changed.name) continue;
    let values: Record<string, unknown> = {};
    try {
      values = JSON.parse(follower.dataset.followValues ?? "{}");
    } catch { /* a malformed map: leave the select as it is */ }
    const next = values[changed.value];
    if (typeof next === "string") follower.value = next;
  }
});

hydrateIslands(document);
localTimes(document);
document.documentElement.dataset.js = "ready";
