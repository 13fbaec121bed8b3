-- The starting credits of open sign-up, given once per mailbox: `mailbox` is the address's
-- normalised form (case, a trailing dot of the domain, the +tag, Unicode look-alikes folded;
-- domain/accounts/mailbox.ts), so x+1@, X@example.com. and a look-alike in another script are one
-- mailbox and get one grant between them. Accounts made before this table got their grant already.
CREATE TABLE signup_grants (
  mailbox text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  granted_at timestamptz NOT NULL DEFAULT now()
);
