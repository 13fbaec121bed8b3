-- An account's default form of its shorts.completed webhooks: 'full' (the whole result in the body)
-- or 'thin' (the counts and a resultUrl to page the stored result). NULL: full. A request's own
-- webhookPayload wins; the choice is recorded with the request (its options) when it is accepted, so
-- every attempt of one webhook sends the same bytes whatever the default becomes later.
ALTER TABLE accounts ADD COLUMN webhook_payload text CHECK (webhook_payload IN ('full', 'thin'));
