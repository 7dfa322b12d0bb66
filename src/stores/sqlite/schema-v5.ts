// Step 5: the `Idempotency-Key`s of submits. A key names the run its first submit created; the
// primary key is what decides between two submits racing with one key. `idempotency_created`
// lets expiry take the oldest keys a few at a time, and `idempotency_run` lets deleteRun find a
// run's keys.
export const SCHEMA_V5 = `
CREATE TABLE idempotency_keys (
  key TEXT PRIMARY KEY,
  workflow TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  run_id TEXT NOT NULL REFERENCES runs (id),
  created INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_created ON idempotency_keys (created);
CREATE INDEX idempotency_run ON idempotency_keys (run_id);
`;
