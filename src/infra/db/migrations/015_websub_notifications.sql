-- WebSub notifications already acted on, by (channel, video, <updated>): a genuine signed
-- notification never expires, so a replay of it must be recognised and dropped. Rows older than
-- the lease are deleted; notifications that old are ignored anyway.
CREATE TABLE websub_notifications_seen (
  channel_id text NOT NULL,
  video_id text NOT NULL,
  updated text NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (channel_id, video_id, updated)
);
CREATE INDEX websub_notifications_seen_received ON websub_notifications_seen (received_at);
