// Step 6: the input a run was submitted with (JSON text; NULL when none was given).
export const SCHEMA_V6 = `
ALTER TABLE runs ADD COLUMN input TEXT;
`;
