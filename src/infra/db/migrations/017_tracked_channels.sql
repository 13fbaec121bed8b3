-- Tracked channels: a watch with track_days refreshes the counts of the channel's Shorts published
-- within that many days at each check; with alert_views/alert_hours it sends shorts.growth when a
-- Short gains that many views within that many hours, at most once per Short per alert window
-- (stats_alerts_sent remembers when).
ALTER TABLE watches ADD COLUMN track_days integer;
ALTER TABLE watches ADD COLUMN alert_views bigint;
ALTER TABLE watches ADD COLUMN alert_hours integer;
CREATE TABLE stats_alerts_sent (
  watch_id text NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
  video_id text NOT NULL,
  sent_at timestamptz NOT NULL,
  PRIMARY KEY (watch_id, video_id)
);
