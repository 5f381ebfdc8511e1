/**
 * Webhooks: cache-refresh webhooks (create shows the URL once), disable/enable and the
 * asset purge switch (the URL stays), regenerate, delete, events.
 */
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm, Checkbox, Hidden, Select } from "../../../components/ApiForm.tsx";
import { Badge, Empty, Refusal, TableWrap, Time } from "../../../components/ui.tsx";
import { eventView, listWebhooks, webhookView } from "../../../lib/webhooks/cache_refresh.ts";
import { listEvents } from "../../../lib/webhooks/cache_refresh.ts";

type Tenant = Parameters<TenantAreaPage>[0];

/** A created or regenerated webhook's URL, shown once. */
const REVEAL = { key: "url", label: "Webhook URL" };

/** A webhook's last deliveries. */
function WebhookEvents(
  { id, events }: { id: number; events: ReturnType<typeof eventView>[] },
) {
  if (events.length === 0) return <p class="muted">No deliveries yet.</p>;
  return (
    <TableWrap label={`Events of webhook ${id}`}>
      <thead>
        <tr>
          <th>Received</th>
          <th>Event</th>
          <th>Status</th>
          <th>API version</th>
          <th class="num">ms</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id}>
            <td>
              <Time at={e.receivedAt} />
            </td>
            <td>{e.eventType ?? "—"}</td>
            <td>
              <Badge
                tone={e.status === "failed" ? "error" : e.status === "synced" ? "ok" : "warn"}
              >
                {e.status}
              </Badge>
              {e.message ? ` ${e.message}` : ""}
            </td>
            <td>{e.previousApiCacheVersion ?? "—"} → {e.nextApiCacheVersion ?? "—"}</td>
            <td class="num">{e.durationMs ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </TableWrap>
  );
}

/**
 * One webhook: its state, its admin actions and its last events.
 * Long: one card's markup: the hook's state and its admin actions (disable or enable, the asset
 * purge switch, regenerate, delete), each its own form; the events are WebhookEvents.
 */
function WebhookCard(
  { t, h, events, admin }: {
    t: Tenant;
    h: ReturnType<typeof webhookView>;
    events: ReturnType<typeof eventView>[];
    admin: boolean;
  },
) {
  return (
    <section class="card" aria-label={`Webhook ${h.id}`}>
      <h2>
        #{h.id} {h.provider}{" "}
        <Badge tone={h.lastStatus === "failed" ? "error" : h.lastStatus ? "ok" : "neutral"}>
          {h.lastStatus ?? "never called"}
        </Badge>{" "}
        {!h.enabled && <Badge tone="warn">disabled</Badge>}
      </h2>
      <p class="muted">
        {h.enabled
          ? `Refreshes API${h.refreshAssets ? " and assets" : ""}.`
          : "Disabled: calls to its URL are answered 404 and refresh nothing."} Created{" "}
        <Time at={h.createdAt} />, last triggered <Time at={h.lastTriggeredAt} />.
      </p>
      {admin && (
        <div class="actions">
          <ApiForm
            api={`${t.api}/cache-refresh-webhooks/${h.id}`}
            method="PATCH"
            submit={h.enabled ? "Disable" : "Enable"}
            busy="Saving…"
            confirm={h.enabled
              ? "Disable this webhook? Publishing in your CMS no longer purges the cache until you enable it again."
              : undefined}
            done={h.enabled ? "Webhook disabled; its URL is kept" : "Webhook enabled"}
            layout="inline"
            secondary
            label={`${h.enabled ? "Disable" : "Enable"} webhook ${h.id}`}
          >
            <Hidden name="enabled:bool" value={String(!h.enabled)} />
          </ApiForm>
          <ApiForm
            api={`${t.api}/cache-refresh-webhooks/${h.id}`}
            method="PATCH"
            submit={h.refreshAssets ? "Stop purging assets" : "Also purge assets"}
            busy="Saving…"
            done={h.refreshAssets ? "Now purges the API cache only" : "Now purges assets too"}
            layout="inline"
            secondary
            label={`Asset purge of webhook ${h.id}`}
          >
            <Hidden name="refreshAssets:bool" value={String(!h.refreshAssets)} />
          </ApiForm>
          <ApiForm
            api={`${t.api}/cache-refresh-webhooks/${h.id}/regenerate`}
            submit="Regenerate URL"
            busy="Regenerating…"
            confirm="Regenerate? The old URL stops working at once."
            done="New URL issued; update your CMS"
            reveal={REVEAL}
            layout="inline"
            secondary
            label={`Regenerate webhook ${h.id}`}
          />
          <ApiForm
            api={`${t.api}/cache-refresh-webhooks/${h.id}`}
            method="DELETE"
            submit="Delete"
            busy="Deleting…"
            confirm="Delete this webhook? Its URL stops working at once."
            done="Webhook deleted"
            layout="inline"
            danger
            label={`Delete webhook ${h.id}`}
          />
        </div>
      )}
      <h3>Recent events</h3>
      <WebhookEvents id={h.id} events={events} />
    </section>
  );
}

export const webhooksPage: TenantAreaPage = async (t) => {
  if (!t.can("editor")) {
    return <Refusal role={t.role} need="editor" what="see cache-refresh webhooks" />;
  }
  const admin = t.can("admin");
  const hooks = (await listWebhooks(t.s, t.tenant.id)).map(webhookView);
  const events = await Promise.all(
    hooks.map(async (h) => (await listEvents(t.s, t.tenant.id, h.id)).slice(0, 10).map(eventView)),
  );
  return (
    <>
      <p>
        A CMS calls its webhook URL on publish; Cachely then purges the API cache (and assets when
        chosen). The URL carries its secret and is shown only once.
      </p>
      {!admin && (
        <Refusal
          role={t.role}
          need="admin"
          what="create, disable, regenerate or delete webhooks"
        />
      )}
      {hooks.length === 0 && (
        <Empty title="No cache-refresh webhooks">
          Create one below and paste its URL into your CMS's webhook settings.
        </Empty>
      )}
      {hooks.map((h, i) => <WebhookCard key={h.id} t={t} h={h} events={events[i]} admin={admin} />)}
      {admin && (
        <section class="card">
          <h2>Create a webhook</h2>
          <ApiForm
            api={`${t.api}/cache-refresh-webhooks`}
            submit="Create webhook"
            busy="Creating…"
            done="Webhook created: copy its URL now, it is not shown again"
            reveal={REVEAL}
            label="Create a webhook"
          >
            <Select
              name="provider"
              label="Provider"
              options={["contentful", "sanity", "storyblok", "generic"]}
            />
            <Checkbox name="refreshAssets" label="Also purge assets" />
          </ApiForm>
        </section>
      )}
    </>
  );
};
