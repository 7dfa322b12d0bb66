// Step 7: when a ready attempt may first be claimed (epoch ms; NULL: at once). A retry with a
// backoff waits ready until then (docs/authoring.md, "Retry backoff").
export const SCHEMA_V7 = `
ALTER TABLE tasks ADD COLUMN not_before bigint;
`;
