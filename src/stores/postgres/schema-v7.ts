// Step 7: timers. `not_before`: a ready attempt is not claimed before it (a retry's backoff, a
// sleep cut short by a restart); `sleep_until`: the wake time of the sleep a waiting attempt is
// in; `sleeps`: the wake times of an attempt's sleeps in call order (NULL when none).
// The partial index holds only ready rows that wait for a moment, for the dispatcher's timer.
export const SCHEMA_V7 = `
ALTER TABLE tasks ADD COLUMN not_before bigint;
ALTER TABLE tasks ADD COLUMN sleep_until bigint;
ALTER TABLE tasks ADD COLUMN sleeps json;
CREATE INDEX tasks_deferred ON tasks (not_before) WHERE status = 'ready' AND not_before IS NOT NULL;
`;
