-- allowedTypes unset now serves every type, as in the original product. Tenants
-- made before kept the safe list while it was unset: it is written down for them so what
-- they serve does not change (the list is DEFAULT_ALLOWED_TYPES, lib/providers/content_types.ts).
UPDATE tenants SET settings = settings || jsonb_build_object('allowedTypes', jsonb_build_array(
  'image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif', 'image/svg+xml',
  'application/pdf', 'video/mp4', 'video/webm', 'video/quicktime', 'video/x-m4v', 'audio', 'font',
  'application/font-woff', 'application/x-font-ttf', 'application/x-font-otf',
  'application/vnd.ms-fontobject'))
WHERE NOT (settings ? 'allowedTypes');
