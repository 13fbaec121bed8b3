-- Operators (#11): roles, operator credit deductions, the audit log of operator actions, invitations.
ALTER TABLE accounts ADD COLUMN role text NOT NULL DEFAULT 'customer' CHECK (role IN ('customer', 'operator'));

-- An operator may take credits back ('deduct', a negative amount with a reason in note).
ALTER TABLE credit_ledger DROP CONSTRAINT credit_ledger_kind_check;
ALTER TABLE credit_ledger ADD CONSTRAINT credit_ledger_kind_check CHECK (kind IN ('grant', 'charge', 'deduct'));

-- Every operator action, written in the transaction of the action itself. Append-only.
CREATE TABLE operator_audit_log (
  id bigserial PRIMARY KEY,
  actor text NOT NULL,
  actor_account_id uuid REFERENCES accounts(id),
  action text NOT NULL,
  target_account_id uuid REFERENCES accounts(id),
  target text,
  reason text,
  before jsonb,
  after jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operator_audit_log_target_idx ON operator_audit_log (target_account_id, id DESC);

-- Invitation links: only a SHA-256 of the one-time token is stored.
CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  credits integer NOT NULL DEFAULT 0 CHECK (credits >= 0),
  role text NOT NULL DEFAULT 'customer' CHECK (role IN ('customer', 'operator')),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  account_id uuid REFERENCES accounts(id)
);
CREATE INDEX invitations_email_idx ON invitations (email, created_at DESC);
