-- Edge generations from one sequence: still increasing per slug, and now
-- across the whole database, so KV can remember the highest generation it was ever written at
-- (["edge","high_water"]). A database restored from an older dump has its sequence behind that
-- mark: an instance starting on it sees so at boot and rebuilds KV from it before serving
-- (lib/edge_config/reconcile.ts), after moving the sequence past the mark.
CREATE SEQUENCE IF NOT EXISTS edge_generation_seq;
SELECT setval('edge_generation_seq', GREATEST(1, (SELECT coalesce(max(generation), 0) FROM edge_changes)));
