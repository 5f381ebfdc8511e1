/** One button, one API call (refresh cache, rebuild edge config, delete, ...), with its answer shown. */
import { useSignal } from "@preact/signals";
import { callApi, pick } from "./api.ts";

export type ActionButtonProps = {
  method: "POST" | "PUT" | "DELETE";
  url: string;
  label: string;
  body?: unknown;
  confirm?: string;
  redirectTo?: string;
  /** Show this key (or the first present of these, dotted paths allowed) of the answer. */
  revealKey?: string | string[];
  /** After success, go to the URL in this key of the JSON answer (e.g. a checkout `url`). */
  followKey?: string;
};

export function ActionButton(props: ActionButtonProps) {
  const message = useSignal<{ ok: boolean; text: string } | null>(null);
  async function run() {
    if (props.confirm && !globalThis.confirm(props.confirm)) return;
    const r = await callApi(props.method, props.url, props.body);
    const revealed = r.ok ? pick(r.body, props.revealKey) : "";
    message.value = { ok: r.ok, text: revealed ? `${r.message}: ${revealed}` : r.message };
    const follow = r.ok && props.followKey
      ? (r.body as Record<string, unknown> | null)?.[props.followKey]
      : undefined;
    if (typeof follow === "string" && /^https?:\/\//.test(follow)) location.href = follow;
    else if (r.ok && props.redirectTo) location.href = props.redirectTo;
  }
  return (
    <span class="action">
      <button type="button" onClick={run}>{props.label}</button>
      {message.value && <span class={message.value.ok ? "ok" : "error"}>{message.value.text}</span>}
    </span>
  );
}
