// Step 9: several servers on one schema. `servers` holds a row per live server: its lease runs
// until `lease_until` (the database's clock, so the servers' own clocks never have to agree) and
// is renewed by the server's heartbeat. `tasks.owner` names the server whose claim holds an
// attempt (in progress, or waiting with its body alive there); a row made ready again has none.
export const SCHEMA_V9 = `
CREATE TABLE servers (
  id text PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  url text,
  started timestamptz NOT NULL DEFAULT clock_timestamp(),
  heartbeat timestamptz NOT NULL DEFAULT clock_timestamp(),
  lease_until timestamptz NOT NULL
);
ALTER TABLE tasks ADD COLUMN owner text;
CREATE INDEX tasks_owned ON tasks (owner) WHERE status IN ('in_progress', 'waiting');
`;
