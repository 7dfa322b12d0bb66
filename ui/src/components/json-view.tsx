// A JSON value, pretty-printed in monospace with a Copy button; folded by default when it is
// large, as a native <details> (keyboard-friendly). Long lines wrap: nothing scrolls sideways.
import { useMemo } from "react";
import { CopyButton } from "./copy-button.tsx";

export function jsonText(value: unknown): string {
  if (value === undefined) return "—";
  try {
    return JSON.stringify(value, null, 2) ?? "null";
  } catch {
    return String(value);
  }
}

function summary(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[ ${value.length} item${value.length === 1 ? "" : "s"} ]`;
  if (typeof value === "object") {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 4).join(", ");
    return `{ ${shown}${keys.length > 4 ? ", …" : ""} }`;
  }
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** Past this many characters a value starts folded even where it would be shown open. */
const LARGE = 4000;

export function JsonView({
  value,
  label,
  open,
}: {
  value: unknown;
  label?: string;
  open?: boolean;
}) {
  const text = useMemo(() => jsonText(value), [value]);
  const small = text.length <= 60 && !text.includes("\n");
  if (small) {
    return (
      <div className="json-inline">
        {label && <span className="json-label">{label}</span>}
        <code>{text}</code>
        <CopyButton text={text} what={label ? `${label} JSON` : "JSON"} />
      </div>
    );
  }
  return (
    <details className="json" open={open && text.length <= LARGE}>
      <summary>
        {label && <span className="json-label">{label}</span>}
        <code className="muted">{summary(value)}</code>
        <CopyButton text={text} what={label ? `${label} JSON` : "JSON"} />
      </summary>
      <pre>{text}</pre>
    </details>
  );
}
