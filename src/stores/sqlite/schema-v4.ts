// Step 4: runs not ended, by status, in an index of their own, so health and metrics count
// queued, running and paused runs by reading index entries alone (runs_active holds queued and
// running runs too, but not their status, so counting them by status read every row). A run
// leaves it when it ends, so however many ended runs the store keeps, they cost it nothing.
export const SCHEMA_V4 = `
CREATE INDEX runs_open ON runs (status) WHERE status IN ('queued', 'running', 'paused');
`;
