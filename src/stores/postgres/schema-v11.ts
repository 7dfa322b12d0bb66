// Step 11: indexes for finding runs newest first (GET /api/runs `sort=created|updated`): each
// answers its sort in order with its keyset `(time, id) < (?, ?)`, so a page reads only its own
// rows instead of sorting the whole table. `runs_created` also serves the bulk selection's
// `created` order.
export const SCHEMA_V11 = `
CREATE INDEX runs_created ON runs (created, id);
CREATE INDEX runs_updated ON runs (updated, id);
`;
