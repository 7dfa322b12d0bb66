// Step 3: which submission a \`ctx.agent\` call resolved with (its number within the attempt), so
// a body that runs again after a restart gets the result back instead of running its agent again.
export const SCHEMA_V3 = `
ALTER TABLE submissions ADD COLUMN agent_call INTEGER;
`;
