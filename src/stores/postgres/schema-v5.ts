// Step 5: the input a run was submitted with (`json`, which keeps the text as written; NULL when
// none was given).
export const SCHEMA_V5 = `
ALTER TABLE runs ADD COLUMN input json;
`;
