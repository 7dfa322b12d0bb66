// A moment given on the command line: an ISO-8601 date-time with an offset
// (2026-11-01T09:00:00Z, 2026-11-01T10:00:00+01:00), a date (2026-11-01, midnight UTC), or a
// span back from now (90s, 30m, 2h, 3d, 1w). Answered as the ISO instant the API takes.

const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i;
const DATE = /^\d{4}-\d\d-\d\d$/;
const SPAN = /^(\d+)(s|m|h|d|w)$/;
const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** The ISO instant `text` names, or null when it is none of the accepted forms. */
export function parseInstant(text: string, now = Date.now()): string | null {
  const span = SPAN.exec(text);
  if (span) return new Date(now - Number(span[1]) * UNIT_MS[span[2]!]!).toISOString();
  const iso = ISO_WITH_OFFSET.test(text) ? text : DATE.test(text) ? `${text}T00:00:00Z` : null;
  if (iso === null) return null;
  const ms = Date.parse(iso);
  // A date the calendar lacks (2026-02-30) parses to another day or NaN: refuse both.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== utcDay(iso, ms)) return null;
  return new Date(ms).toISOString();
}

// The day the text names, in UTC, as Date would print it (an offset can move it).
function utcDay(iso: string, ms: number): string {
  return /Z$|[+-]00:00$/i.test(iso) ? iso.slice(0, 10) : new Date(ms).toISOString().slice(0, 10);
}
