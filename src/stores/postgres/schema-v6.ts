// Step 6: the stack of the error a failed attempt's body threw (NULL when none).
export const SCHEMA_V6 = `
ALTER TABLE tasks ADD COLUMN error_stack text;
`;
