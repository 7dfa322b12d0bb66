// Aligned text columns, sized to their widest cell. Colour codes do not count toward width, and
// the last column is not padded so lines carry no trailing spaces.
import { visible } from "./style.ts";

export interface Column {
  header: string;
  /** Numbers read best right-aligned. */
  align?: "left" | "right";
}

const GAP = "  ";

export function renderTable(columns: readonly Column[], rows: readonly string[][]): string[] {
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...rows.map((row) => visible(row[i] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((column, i) => {
        const cell = oneLine(cells[i] ?? "");
        const pad = " ".repeat(widths[i] - visible(cell).length);
        if (column.align === "right") return pad + cell;
        return i === columns.length - 1 ? cell : cell + pad;
      })
      .join(GAP)
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...rows.map(line)];
}

/** Table cells stay on one line whatever text they were given. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ");
}

/** Shortens `text` to `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  const flat = oneLine(text);
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** `key: value` lines with the values aligned, for a record's header fields. */
export function renderFields(fields: ReadonlyArray<[string, string]>): string[] {
  const width = Math.max(...fields.map(([key]) => key.length)) + 1;
  return fields.map(([key, value]) => `${`${key}:`.padEnd(width)} ${value}`);
}
