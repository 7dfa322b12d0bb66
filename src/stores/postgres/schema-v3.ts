// Step 3: runs not ended, by status, in an index of their own, so health and metrics count
// queued, running and paused runs from the index (an index-only scan) instead of the table. A
// run leaves it when it ends, so however many ended runs the store keeps, they cost it nothing.
export const SCHEMA_V3 = `
CREATE INDEX runs_open ON runs (status) WHERE status IN ('queued', 'running', 'paused');
`;
