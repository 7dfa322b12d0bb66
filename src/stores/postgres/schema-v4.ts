// Step 4: the `Idempotency-Key`s of submits. A key names the run its first submit created; the
// primary key is what decides between two submits racing with one key (servers sharing the
// schema included: `INSERT .. ON CONFLICT` waits for the other's commit). `idempotency_created`
// lets expiry take the oldest keys a few at a time, `idempotency_run` lets deleteRun find a
// run's keys.
export const SCHEMA_V4 = `
CREATE TABLE idempotency_keys (
  key text PRIMARY KEY,
  workflow text NOT NULL,
  body_hash text NOT NULL,
  run_id text NOT NULL REFERENCES runs (id),
  created bigint NOT NULL
);
CREATE INDEX idempotency_created ON idempotency_keys (created);
CREATE INDEX idempotency_run ON idempotency_keys (run_id);
`;
