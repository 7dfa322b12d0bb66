// A refusal may repeat what the client sent (a path, a header, a schema's pattern) so a person
// can see what was wrong; it repeats a bounded excerpt, never the whole value, so one oversized
// input cannot be echoed (or logged, or stored in an event) at full size. Shared: the HTTP
// layer, the MCP server, the service and the JSON Schema compiler all echo client input.
import { MAX_ECHO_LENGTH } from "./limits.ts";

/** `text` itself when short enough, else its start and how long the whole was. */
export function excerpt(text: string, max = MAX_ECHO_LENGTH): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length} characters)`;
}
