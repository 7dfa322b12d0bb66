// Step 12: `runs_active` goes. It held the queued and running runs in dispatch-list order, for a
// claim that walked them in SQL; the writer's in-memory ready index (ready-index.ts) has made
// every claim since, and loads the runs it follows from `runs_open` (whose statuses include
// them) in any order, so the index was one more entry written for every new run and removed at
// its end, read by nothing else. (PostgreSQL keeps its `runs_active`: its claim walks it.)
export const SCHEMA_V12 = `
DROP INDEX IF EXISTS runs_active;
`;
