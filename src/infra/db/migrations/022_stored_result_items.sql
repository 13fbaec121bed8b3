-- A stored result read page by page by key: its shorts one row each, by position (1, 2, …, in the
-- result's order), and its channel and count in a row of their own, so a page is an index range
-- (position > the cursor's) whatever its place, never a slice of the whole result's jsonb (the last
-- page of 5,000 shorts cost ~30 times the first). The trigger keeps both in step with
-- shorts_requests.result on every path that writes it: written when a result with `data` is stored,
-- deleted when the retention purge drops `data`.
CREATE TABLE stored_results (
  request_id text PRIMARY KEY REFERENCES shorts_requests(id),
  total integer,
  channel jsonb
);
CREATE TABLE stored_result_items (
  request_id text NOT NULL REFERENCES stored_results(request_id) ON DELETE CASCADE,
  position integer NOT NULL,
  short jsonb NOT NULL,
  PRIMARY KEY (request_id, position)
);

CREATE FUNCTION stored_result_items_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  had_data boolean := TG_OP = 'UPDATE' AND coalesce(OLD.result ? 'data', false);
  has_data boolean := coalesce(NEW.result ? 'data', false);
BEGIN
  IF had_data AND NOT has_data THEN
    DELETE FROM stored_results WHERE request_id = OLD.id;
  ELSIF has_data AND (NOT had_data OR OLD.result IS DISTINCT FROM NEW.result) THEN
    DELETE FROM stored_results WHERE request_id = NEW.id;
    INSERT INTO stored_results (request_id, total, channel)
      VALUES (NEW.id, CASE WHEN jsonb_typeof(NEW.result->'data'->'shorts') = 'array'
                      THEN jsonb_array_length(NEW.result->'data'->'shorts') END,
              NEW.result->'data'->'channel');
    INSERT INTO stored_result_items (request_id, position, short)
      SELECT NEW.id, x.n, x.e FROM jsonb_array_elements(
        CASE WHEN jsonb_typeof(NEW.result->'data'->'shorts') = 'array' THEN NEW.result->'data'->'shorts'
        ELSE '[]'::jsonb END) WITH ORDINALITY AS x(e, n);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER stored_result_items_sync AFTER INSERT OR UPDATE OF result ON shorts_requests
  FOR EACH ROW EXECUTE FUNCTION stored_result_items_sync();

-- The results stored before this migration.
INSERT INTO stored_results (request_id, total, channel)
  SELECT id, CASE WHEN jsonb_typeof(result->'data'->'shorts') = 'array'
             THEN jsonb_array_length(result->'data'->'shorts') END, result->'data'->'channel'
  FROM shorts_requests WHERE result ? 'data';
INSERT INTO stored_result_items (request_id, position, short)
  SELECT r.id, x.n, x.e FROM shorts_requests r,
    jsonb_array_elements(CASE WHEN jsonb_typeof(r.result->'data'->'shorts') = 'array' THEN r.result->'data'->'shorts'
                         ELSE '[]'::jsonb END) WITH ORDINALITY AS x(e, n)
  WHERE r.result ? 'data';
