/**
 * Webhooks: cache-refresh webhooks (create shows the URL once, with the scope: "entities"
 * recommended for the CMS kinds), disable/enable, the asset purge and scope switches (the
 * URL stays), regenerate, delete, events with what each purged.
 */
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm, Checkbox, Hidden, Select } from "../../../components/ApiForm.tsx";
import { Badge, Empty, Refusal, TableWrap, Time } from "../../../components/ui.tsx";
import { eventView, listWebhooks, webhookView } from "../../../lib/webhooks/cache_refresh.ts";
import { listEvents } from "../../../lib/webhooks/cache_refresh.ts";
import { definitionOf, WEBHOOK_PROVIDERS } from "../../../lib/providers/mod.ts";

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
          <th>Purged</th>
          <th class="num">ms</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id}>
            <td>
              <Time at={e.receivedAt} />
            </td>
            <td>{e.eventType ?? "\u2014"}</td>
            <td>
              <Badge
                tone={e.status === "failed" ? "error" : e.status === "synced" ? "ok" : "warn"}
              >
                {e.status}
              </Badge>
              {e.message ? ` ${e.message}` : ""}
            </td>
            <td>
              {e.previousApiCacheVersion ?? "\u2014"} {`\u2192`} {e.nextApiCacheVersion ?? "\u2014"}
            </td>
            <td data-purged={purgedKind(e.purged)}>
              <PurgedCell purged={e.purged} />
            </td>
            <td class="num">{e.durationMs ?? "\u2014"}</td>
          </tr>
        ))}
      </tbody>
    </TableWrap>
  );
}

/** `data-purged` of an event: a version bump, an "entities" fallback to one, or entities. */
function purgedKind(purged: ReturnType<typeof eventView>["purged"]): string {
  return purged === null ? "all" : purged.fallback !== null ? "fallback" : "entities";
}

/** What an "entities" delivery purged: its entities and lists, or why it bumped instead. */
function PurgedCell({ purged }: { purged: ReturnType<typeof eventView>["purged"] }) {
  if (purged === null) return <>everything (version bump)</>;
  if (purged.fallback !== null) return <>everything: {purged.fallback}</>;
  const more = purged.ids - purged.firstIds.length;
  return (
    <>
      {purged.ids} {purged.ids === 1 ? "entity" : "entities"} ({purged.firstIds.join(", ")}
      {more > 0 ? ` and ${more} more` : ""}),{" "}
      {purged.types === null ? "every list" : `lists of ${purged.types.join(", ")}`}
    </>
  );
}

/** The webhook kinds whose webhooks name entities: "entities" scope is recommended for them. */
const ENTITY_PROVIDERS = WEBHOOK_PROVIDERS.filter((k) => definitionOf(k).entities);

/**
 * The webhook kind preselected for a tenant whose CMS names no entities: the one whose webhooks
 * purge the whole cache, matching the "all" scope preselected beside it.
 */
const WHOLE_CACHE_PROVIDER = WEBHOOK_PROVIDERS.find((k) => !definitionOf(k).entities);

/** The provider choices, each by its definition's label. */
const PROVIDER_OPTIONS = WEBHOOK_PROVIDERS.map((k) => ({ value: k, label: definitionOf(k).label }));

const SCOPE_OPTIONS = [
  {
    value: "entities",
    label: `Only what the publish touched (recommended for ${
      ENTITY_PROVIDERS.map((k) => definitionOf(k).label).join(", ")
    })`,
  },
  { value: "all", label: "The whole API cache (a version bump)" },
];

/** The scope each provider choice selects (the person may still pick the other). */
const SCOPE_OF_PROVIDER = Object.fromEntries(
  WEBHOOK_PROVIDERS.map((k) => [k, definitionOf(k).entities ? "entities" : "all"]),
);

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
    <section
      class="card"
      aria-label={`Webhook ${h.id}`}
      data-scope={h.scope}
      data-enabled={String(h.enabled)}
    >
      <h2>
        #{h.id} {h.provider}{" "}
        <Badge tone={h.lastStatus === "failed" ? "error" : h.lastStatus ? "ok" : "neutral"}>
          {h.lastStatus ?? "never called"}
        </Badge>{" "}
        {!h.enabled && <Badge tone="warn">disabled</Badge>}
      </h2>
      <p class="muted">
        {h.enabled
          ? `${
            h.scope === "entities"
              ? "Purges the answers holding the published entries and the lists of their types"
              : "Refreshes the whole API cache"
          }${h.refreshAssets ? ", and assets" : ""}.`
          : "Disabled: calls to its URL are answered 404 and refresh nothing."} Created{" "}
        <Time at={h.createdAt} />, last triggered <Time at={h.lastTriggeredAt} />.
      </p>
      {admin && (
        <div class="actions">
          <ApiForm
            api={`${t.api}/cache-refresh-webhooks/${h.id}`}
            method="PATCH"
            submit={h.enabled ? "Disable" : "Enable"}
            busy={`Saving\u2026`}
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
            busy={`Saving\u2026`}
            done={h.refreshAssets ? "Now purges the API cache only" : "Now purges assets too"}
            layout="inline"
            secondary
            label={`Asset purge of webhook ${h.id}`}
          >
            <Hidden name="refreshAssets:bool" value={String(!h.refreshAssets)} />
          </ApiForm>
          <ApiForm
            api={`${t.api}/cache-refresh-webhooks/${h.id}`}
            method="PATCH"
            submit={h.scope === "entities" ? "Purge everything instead" : "Purge only what changed"}
            busy={`Saving\u2026`}
            done={h.scope === "entities"
              ? "Now bumps the whole API cache"
              : "Now purges only the published entries and their lists"}
            layout="inline"
            secondary
            label={`Scope of webhook ${h.id}`}
          >
            <Hidden name="scope" value={h.scope === "entities" ? "all" : "entities"} />
          </ApiForm>
          <ApiForm
            api={`${t.api}/cache-refresh-webhooks/${h.id}/regenerate`}
            submit="Regenerate URL"
            busy={`Regenerating\u2026`}
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
            busy={`Deleting\u2026`}
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
  const cmsHook = ENTITY_PROVIDERS.some((k) => k === t.tenant.cms);
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
        <Empty title="No cache-refresh webhooks" name="webhooks">
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
            busy={`Creating\u2026`}
            done="Webhook created: copy its URL now, it is not shown again"
            reveal={REVEAL}
            label="Create a webhook"
          >
            <Select
              name="provider"
              label="Provider"
              options={PROVIDER_OPTIONS}
              value={cmsHook ? t.tenant.cms : WHOLE_CACHE_PROVIDER}
            />
            <Select
              name="scope"
              label="What a publish purges"
              options={SCOPE_OPTIONS}
              value={cmsHook ? "entities" : "all"}
              follows={{ field: "provider", values: SCOPE_OF_PROVIDER }}
              hint="Only what changed keeps every other answer cached; a generic webhook, or a payload naming no entry, purges everything."
            />
            <Checkbox name="refreshAssets" label="Also purge assets" />
          </ApiForm>
        </section>
      )}
    </>
  );
};
