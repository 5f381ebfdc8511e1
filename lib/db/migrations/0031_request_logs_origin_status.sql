-- The origin's own status on a request log row when the request reached the origin (null
-- otherwise): an origin 500 answered to the visitor as 502 shows as such in the Logs page.
ALTER TABLE request_logs ADD COLUMN IF NOT EXISTS origin_status integer;
