// A small "Copy" button beside an id or a JSON block. It writes the text to the clipboard (the
// async Clipboard API; where the page may not use it, a hidden textarea and execCommand) and
// says "Copied" for a moment, to screen readers too.
import { useEffect, useState } from "react";

async function writeClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Not allowed here (an insecure origin, no permission): the old way.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}

export function CopyButton({ text, what }: { text: string; what: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <button
      type="button"
      className="copy-btn"
      data-copy={what}
      aria-label={`Copy ${what}`}
      title={`Copy ${what}`}
      onClick={(e) => {
        e.stopPropagation();
        void writeClipboard(text).then(() => setCopied(true));
      }}
    >
      <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
    </button>
  );
}
