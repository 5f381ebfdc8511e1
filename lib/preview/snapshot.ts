/**
 * The preview part of a tenant's edge snapshot (lib/edge_config/projector.ts), from the
 * tenants.settings keys lib/preview/service.ts owns. Kept apart so the projector imports no
 * domain service.
 */
import type { EdgePreviewSettings } from "../kv/snapshot.ts";

/** The keys of tenants.settings the preview service owns (sealed values). */
export type PreviewSettings = {
  previewSecretEnc?: string;
  previewTokenEnc?: string;
  previewApiOrigin?: string;
};

export function previewSnapshotOf(t: { settings: unknown }): EdgePreviewSettings {
  const p = (t.settings ?? {}) as PreviewSettings;
  return {
    secretEnc: p.previewSecretEnc ?? null,
    tokenEnc: p.previewTokenEnc ?? null,
    origin: p.previewApiOrigin ?? null,
  };
}
