// The first schema. Tables are STRICT so a wrong type is refused instead of silently stored.
// JSON values are TEXT holding JSON (`'null'` for null), booleans INTEGER 0/1, times INTEGER
// epoch ms. Child rows reference their run or task without ON DELETE CASCADE: deleteRun removes
// them explicitly (portable to PostgreSQL) and the foreign keys prove nothing was forgotten.
export const SCHEMA_V1 = `
CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  workflow TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  status TEXT NOT NULL,
  position INTEGER NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  started INTEGER NOT NULL
) STRICT;
-- Not UNIQUE: SQLite checks uniqueness row by row, so shifting positions by one would collide.
CREATE INDEX runs_position ON runs (position);
-- The claim walks the runs that can dispatch in list order and stops after LIMIT tasks; ended
-- and paused runs are not in this index, so however many accumulate they cost nothing.
CREATE INDEX runs_active ON runs (position, workflow, id) WHERE status IN ('queued', 'running');

CREATE TABLE tasks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL REFERENCES runs (id),
  node TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'ready',
  priority REAL NOT NULL,
  explicit INTEGER NOT NULL,
  created INTEGER NOT NULL,
  started INTEGER,
  finished INTEGER,
  error TEXT,
  payload_present INTEGER NOT NULL,
  payload TEXT NOT NULL,
  result TEXT NOT NULL DEFAULT 'null',
  result_present INTEGER NOT NULL DEFAULT 0,
  terminal INTEGER NOT NULL DEFAULT 0,
  branch TEXT NOT NULL,
  lineage TEXT NOT NULL,
  stats TEXT NOT NULL DEFAULT 'null',
  claim INTEGER NOT NULL DEFAULT 0,
  token_hash TEXT,
  used_s REAL NOT NULL DEFAULT 0,
  waiting_since INTEGER
) STRICT;
CREATE INDEX tasks_run ON tasks (run_id, id);
CREATE INDEX tasks_status ON tasks (status, id);
-- The claim probes each active run for ready rows: a partial index keeps that set small
-- however many finished tasks accumulate, and already holds the in-run dispatch order.
CREATE INDEX tasks_ready ON tasks (run_id, priority DESC, created, id) WHERE status = 'ready';
CREATE INDEX tasks_token ON tasks (token_hash) WHERE token_hash IS NOT NULL;

CREATE TABLE log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL REFERENCES runs (id),
  node TEXT NOT NULL,
  task_id INTEGER,
  author TEXT NOT NULL,
  kind TEXT,
  text TEXT NOT NULL,
  created INTEGER NOT NULL
) STRICT;
CREATE INDEX log_run ON log (run_id, id);

CREATE TABLE requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL REFERENCES runs (id),
  task_id INTEGER NOT NULL REFERENCES tasks (id),
  node TEXT NOT NULL,
  kind TEXT NOT NULL,
  mode TEXT NOT NULL,
  source TEXT NOT NULL,
  ordinal INTEGER,
  prompt TEXT NOT NULL,
  options TEXT NOT NULL,
  schema TEXT NOT NULL,
  tool_call TEXT NOT NULL,
  answered_by TEXT,
  answer TEXT NOT NULL,
  stale INTEGER NOT NULL,
  created INTEGER NOT NULL,
  answered INTEGER
) STRICT;
CREATE INDEX requests_run ON requests (run_id, id);
CREATE INDEX requests_task ON requests (task_id, id);
CREATE INDEX requests_pending ON requests (id) WHERE answered_by IS NULL AND stale = 0;

CREATE TABLE submissions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id INTEGER NOT NULL REFERENCES tasks (id),
  created INTEGER NOT NULL,
  payload TEXT NOT NULL
) STRICT;
CREATE INDEX submissions_task ON submissions (task_id, id);

-- No uniqueness on (run, join, fanout, index): a late branch may arrive again, and the engine
-- decides what a repeat means. seq keeps insertion order among equal keys.
CREATE TABLE arrivals (
  seq INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs (id),
  join_name TEXT NOT NULL,
  fanout INTEGER NOT NULL,
  branch_index INTEGER NOT NULL,
  count INTEGER NOT NULL,
  task_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  join_task INTEGER
) STRICT;
CREATE INDEX arrivals_run ON arrivals (run_id, join_name, fanout, branch_index);

CREATE TABLE chunks (
  task_id INTEGER NOT NULL REFERENCES tasks (id),
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  created INTEGER NOT NULL,
  PRIMARY KEY (task_id, seq)
) STRICT, WITHOUT ROWID;

-- No foreign key: a run's events are deleted with it, but events without a run stay.
CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  run_id TEXT,
  task_id INTEGER,
  data TEXT NOT NULL,
  created INTEGER NOT NULL
) STRICT;
CREATE INDEX events_run ON events (run_id, id);

CREATE TABLE registrations (
  workflow TEXT PRIMARY KEY,
  target TEXT,
  pool TEXT NOT NULL,
  seq INTEGER NOT NULL
) STRICT;
`;
