// The first schema, created in the store's schema (search_path). Times are bigint epoch ms,
// ids bigint identities (never reused, even after a rollback), JSON values `json` (the exact
// text that was written, so objects keep their key order; jsonb would reorder keys and refuse
// \u0000), with JSON `null` stored as 'null' rather than SQL NULL. Child rows reference their
// run or task without ON DELETE CASCADE: deleteRun removes them explicitly, and the foreign
// keys prove nothing was forgotten.
export const SCHEMA_V1 = `
CREATE TABLE runs (
  id text PRIMARY KEY,
  workflow text NOT NULL,
  title text NOT NULL,
  description text NOT NULL,
  status text NOT NULL
    CHECK (status IN ('queued', 'running', 'paused', 'completed', 'failed', 'cancelled')),
  position integer NOT NULL,
  created bigint NOT NULL,
  updated bigint NOT NULL,
  started boolean NOT NULL,
  -- Checked at the end of each statement, not row by row, so shifting a range of positions by
  -- one does not collide with itself; a dense list can never hold a position twice.
  CONSTRAINT runs_position_unique UNIQUE (position) DEFERRABLE INITIALLY IMMEDIATE
);
-- The claim walks the runs that can dispatch in list order; ended and paused runs are not in it.
CREATE INDEX runs_active ON runs (position) INCLUDE (workflow)
  WHERE status IN ('queued', 'running');

CREATE TABLE tasks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id text NOT NULL REFERENCES runs (id),
  node text NOT NULL,
  attempt integer NOT NULL,
  status text NOT NULL DEFAULT 'ready' CHECK (status IN
    ('ready', 'in_progress', 'waiting', 'done', 'failed', 'dead_letter', 'cancelled')),
  priority double precision NOT NULL,
  explicit boolean NOT NULL,
  created bigint NOT NULL,
  started bigint,
  finished bigint,
  error text,
  payload_present boolean NOT NULL,
  payload json NOT NULL,
  result json NOT NULL DEFAULT 'null',
  result_present boolean NOT NULL DEFAULT false,
  terminal boolean NOT NULL DEFAULT false,
  branch json NOT NULL,
  lineage json NOT NULL,
  stats json NOT NULL DEFAULT 'null',
  claim integer NOT NULL DEFAULT 0,
  token_hash text,
  used_s double precision NOT NULL DEFAULT 0,
  waiting_since bigint
);
CREATE INDEX tasks_run ON tasks (run_id, id);
-- Partial indexes hold only live attempts, however many finished ones accumulate: the claim's
-- ready rows in in-run dispatch order, the settle probe, and recovery's going attempts.
CREATE INDEX tasks_ready ON tasks (run_id, priority DESC, created, id) WHERE status = 'ready';
CREATE INDEX tasks_live ON tasks (run_id) WHERE status IN ('ready', 'in_progress', 'waiting');
CREATE INDEX tasks_going ON tasks (id) WHERE status IN ('in_progress', 'waiting');
CREATE INDEX tasks_token ON tasks (token_hash) WHERE token_hash IS NOT NULL;

CREATE TABLE log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id text NOT NULL REFERENCES runs (id),
  node text NOT NULL,
  task_id bigint,
  author text NOT NULL,
  kind text,
  text text NOT NULL,
  created bigint NOT NULL
);
CREATE INDEX log_run ON log (run_id, id);

CREATE TABLE requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id text NOT NULL REFERENCES runs (id),
  task_id bigint NOT NULL REFERENCES tasks (id),
  node text NOT NULL,
  kind text NOT NULL,
  mode text NOT NULL,
  source text NOT NULL,
  ordinal integer,
  prompt text NOT NULL,
  options json NOT NULL,
  schema json NOT NULL,
  tool_call json NOT NULL,
  answered_by text,
  answer json NOT NULL,
  stale boolean NOT NULL,
  created bigint NOT NULL,
  answered bigint
);
CREATE INDEX requests_run ON requests (run_id, id);
CREATE INDEX requests_task ON requests (task_id, id);
CREATE INDEX requests_pending ON requests (id) WHERE answered_by IS NULL AND NOT stale;

CREATE TABLE submissions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  task_id bigint NOT NULL REFERENCES tasks (id),
  created bigint NOT NULL,
  payload json NOT NULL
);
CREATE INDEX submissions_task ON submissions (task_id, id);

-- No uniqueness on (run, join, fanout, index): a late branch may arrive again, and the engine
-- decides what a repeat means. seq keeps insertion order among equal keys.
CREATE TABLE arrivals (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id text NOT NULL REFERENCES runs (id),
  join_name text NOT NULL,
  fanout bigint NOT NULL,
  branch_index integer NOT NULL,
  count integer NOT NULL,
  task_id bigint NOT NULL,
  key json NOT NULL,
  value json NOT NULL,
  join_task bigint
);
CREATE INDEX arrivals_run ON arrivals (run_id, join_name, fanout, branch_index);

CREATE TABLE chunks (
  task_id bigint NOT NULL REFERENCES tasks (id),
  seq integer NOT NULL,
  kind text NOT NULL,
  text text NOT NULL,
  created bigint NOT NULL,
  PRIMARY KEY (task_id, seq)
);

-- Ids are handed out from counters.events in the inserting transaction (events.ts), not from a
-- sequence: they follow commit order, and a rolled-back id is never reported by lastEventId.
-- No foreign key: a run's events are deleted with it, but events without a run stay.
CREATE TABLE events (
  id bigint PRIMARY KEY,
  name text NOT NULL,
  run_id text,
  task_id bigint,
  data json NOT NULL,
  created bigint NOT NULL
);
CREATE INDEX events_run ON events (run_id, id);

CREATE TABLE counters (
  name text PRIMARY KEY,
  value bigint NOT NULL
);
INSERT INTO counters (name, value) VALUES ('events', 0);

CREATE TABLE registrations (
  workflow text PRIMARY KEY,
  target text,
  pool text NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);
`;
