// Step 8: schedules and their fires. A fire's primary key (schedule, scheduled_at) is what
// decides between two fires of one due moment (a re-fire after a crash, or another server on
// the schema: `INSERT .. ON CONFLICT DO NOTHING` waits for the other's commit, then stores
// nothing). `run_id` is not a foreign key: a fire outlives the deletion of its run, so the
// moment is never fired again.
export const SCHEMA_V8 = `
CREATE TABLE schedules (
  name text PRIMARY KEY,
  workflow text NOT NULL,
  cron text NOT NULL,
  timezone text NOT NULL,
  title text NOT NULL,
  input json,
  enabled boolean NOT NULL,
  catchup text NOT NULL,
  source text NOT NULL,
  created bigint NOT NULL,
  updated bigint NOT NULL
);
CREATE TABLE schedule_fires (
  schedule text NOT NULL,
  scheduled_at bigint NOT NULL,
  run_id text NOT NULL,
  fired_at bigint NOT NULL,
  PRIMARY KEY (schedule, scheduled_at)
);
`;
