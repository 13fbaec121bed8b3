-- A watch whose channel YouTube no longer has (closed, suspended, deleted) is paused after a few
-- checks in a row find it gone, instead of being checked, and charged, forever (found by review).
ALTER TABLE watches DROP CONSTRAINT IF EXISTS watches_paused_reason_check;
ALTER TABLE watches ADD CONSTRAINT watches_paused_reason_check CHECK (paused_reason IN ('user', 'credits', 'channel'));
