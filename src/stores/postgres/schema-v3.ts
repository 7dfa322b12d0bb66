// Step 3: paused runs are counted (health, metrics) from an index of their own instead of a scan
// of every run. It holds paused runs only, so a run that is never paused costs it nothing.
export const SCHEMA_V3 = `
CREATE INDEX runs_paused ON runs (id) WHERE status = 'paused';
`;
