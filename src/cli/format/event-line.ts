// One readable line per event for `tail` and `submit --wait`: time, event name, short run id,
// task id, then the event's data as key=value pairs (node first, long values cut).
import { EVENT_NAMES } from "../../client/openapi.ts";
import type { EventEnvelope, EventName } from "../client/api-types.ts";
import type { Style } from "./style.ts";
import { truncate } from "./table.ts";
import { clockTime } from "./time.ts";

/** Wide enough for every name of the closed vocabulary (`workflow.unregistered`, 21). */
const NAME_WIDTH = Math.max(...EVENT_NAMES.map((name) => name.length));
const GREEN: readonly string[] = ["run.completed", "task.done"] satisfies EventName[];
const VALUE_MAX = 80;

/** The last 8 characters of a ULID: its random part, so runs made together still differ. */
export function shortRunId(id: string | null | undefined): string {
  if (!id) return "-";
  return id.length > 8 ? id.slice(-8) : id;
}

export function eventLine(event: EventEnvelope, style: Style): string {
  const name = event.name.padEnd(NAME_WIDTH);
  const run = shortRunId(event.run_id).padEnd(8);
  const task = (event.task_id == null ? "-" : `#${event.task_id}`).padEnd(6);
  const data = dataPairs(event.data ?? {});
  const line = `${style.dim(clockTime(event.created))}  ${colourName(event.name, name, style)}  ${run}  ${task}  ${data}`;
  return line.trimEnd();
}

function colourName(name: string, padded: string, style: Style): string {
  if (/\.(failed|dead_lettered|rejected)$/.test(name)) return style.red(padded);
  if (/^request\.opened$|\.waiting$|\.paused$/.test(name)) return style.yellow(padded);
  if (GREEN.includes(name)) return style.green(padded);
  return padded;
}

/**
 * `node=first attempt=2 error="boom"`: node leads because it is what people scan for; null
 * values and empty lists are left out, as they say nothing on a line read at a glance.
 */
export function dataPairs(data: Record<string, unknown>): string {
  const keys = Object.keys(data)
    .filter((key) => !isBlank(data[key]))
    .sort((a, b) => rank(a) - rank(b));
  return keys.map((key) => `${key}=${renderValue(data[key])}`).join(" ");
}

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

function rank(key: string): number {
  return key === "node" ? 0 : 1;
}

function renderValue(value: unknown): string {
  if (typeof value === "string") {
    const bare = /^[\w.:/@+-]+$/.test(value);
    return truncate(bare ? value : JSON.stringify(value), VALUE_MAX);
  }
  return truncate(JSON.stringify(value) ?? "null", VALUE_MAX);
}
