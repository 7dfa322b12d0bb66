// Step 2: the status index holds only the attempts going right now. `tasks_status` had an
// entry for every attempt ever made, and each status change moved it across the index (ready
// -> in_progress -> done: two deletes and three inserts per attempt, on pages the commit then
// writes whole). Every lookup by status alone asks for going attempts (recovery, the pools'
// counts, the settle probe); ready ones have their own partial index, `tasks_ready`, and a
// listing by any other status scans the table in id order, which is the order it answers in.
// Keyed (status, run_id) so the settle probe finds a run's going attempts in one seek.
export const SCHEMA_V2 = `
DROP INDEX tasks_status;
CREATE INDEX tasks_going ON tasks (status, run_id) WHERE status IN ('in_progress', 'waiting');
`;
