// Step 10: who did it. The operator who wrote a work-log entry and who answered a request (an
// authenticated operator's name, http.md "Operators"); NULL for the engine, agents and a server
// without auth.
export const SCHEMA_V10 = `
ALTER TABLE log ADD COLUMN operator TEXT;
ALTER TABLE requests ADD COLUMN operator TEXT;
`;
