// A title search's text as a LIKE/ILIKE pattern's literal part, for both stores: `%`, `_` and
// the escape character itself match only themselves (the statements say ESCAPE '\\').
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
