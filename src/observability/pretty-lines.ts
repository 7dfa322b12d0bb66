// Readable log lines for a person at a terminal, from pino's JSON lines:
//   14:03:07.412 INFO  request completed  reqId=req-1 method=GET path=/api/runs status=200
// A few dozen lines instead of pino-pretty and its dependencies: the log is read by eye here,
// anything that parses it takes the JSON format.
import type { DestinationStream } from "pino";

const LEVELS: Record<number, { name: string; colour: number }> = {
  10: { name: "TRACE", colour: 90 },
  20: { name: "DEBUG", colour: 36 },
  30: { name: "INFO", colour: 32 },
  40: { name: "WARN", colour: 33 },
  50: { name: "ERROR", colour: 31 },
  60: { name: "FATAL", colour: 35 },
};

/** Fields every line has, shown in the line's head rather than as key=value pairs. */
const HEAD = new Set(["level", "time", "pid", "hostname", "msg", "err"]);

function field(key: string, value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `${key}=${/[\s"=]/.test(text) ? JSON.stringify(text) : text}`;
}

export function prettyLine(json: string, colours: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json;
  }
  const level = LEVELS[entry.level as number] ?? { name: String(entry.level), colour: 0 };
  const paint = (code: number, text: string) => (colours ? `\x1b[${code}m${text}\x1b[0m` : text);
  const time =
    typeof entry.time === "number" ? new Date(entry.time).toISOString().slice(11, 23) : "";
  const fields = Object.entries(entry)
    .filter(([key]) => !HEAD.has(key))
    .map(([key, value]) => field(key, value));
  const head = `${paint(90, time)} ${paint(level.colour, level.name.padEnd(5))} ${entry.msg ?? ""}`;
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const stack = err ? `\n    ${(err.stack ?? err.message ?? "").split("\n").join("\n    ")}` : "";
  return `${head}${fields.length ? `  ${paint(90, fields.join(" "))}` : ""}${stack}\n`;
}

/** A pino destination writing each JSON line to `out` as a readable one. */
export function prettyLines(out: DestinationStream, colours: boolean): DestinationStream {
  return { write: (line: string) => out.write(prettyLine(line.trimEnd(), colours)) };
}
