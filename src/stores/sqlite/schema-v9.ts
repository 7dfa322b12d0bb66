// Step 9: schedules and their fires. A fire's primary key (schedule, scheduled_at) is what
// decides between two fires of one due moment (a re-fire after a crash, another server): the
// second insert conflicts and stores nothing. `run_id` is not a foreign key: a fire outlives
// the deletion of its run, so the moment is never fired again.
export const SCHEMA_V9 = `
CREATE TABLE schedules (
  name TEXT PRIMARY KEY,
  workflow TEXT NOT NULL,
  cron TEXT NOT NULL,
  timezone TEXT NOT NULL,
  title TEXT NOT NULL,
  input TEXT,
  enabled INTEGER NOT NULL,
  catchup TEXT NOT NULL,
  source TEXT NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TABLE schedule_fires (
  schedule TEXT NOT NULL,
  scheduled_at INTEGER NOT NULL,
  run_id TEXT NOT NULL,
  fired_at INTEGER NOT NULL,
  PRIMARY KEY (schedule, scheduled_at)
) STRICT, WITHOUT ROWID;
`;
