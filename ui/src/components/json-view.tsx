// A JSON value, folded by default when it is large, as a native <details> (keyboard-friendly).
import { useMemo } from "react";

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
      </div>
    );
  }
  return (
    <details className="json" open={open}>
      <summary>
        {label && <span className="json-label">{label}</span>}
        <code className="muted">{summary(value)}</code>
      </summary>
      <pre>{text}</pre>
    </details>
  );
}
