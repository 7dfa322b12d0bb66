// Markdown from runs, logs and plugins is untrusted: it is rendered by marked and then
// sanitized by DOMPurify (no scripts, no event handlers, no javascript: URLs) before it
// reaches the DOM. Links open in a new tab without access to this page. Nothing in the result
// trips the page's content security policy, so the browser console stays quiet (docs/ui.md).
import DOMPurify from "dompurify";
import { marked } from "marked";
import { useMemo } from "react";
import { stripEventHandlers } from "./strip-handlers.ts";

/** Where the policy's img-src lets an image come from: this server, data: and blob: URLs. */
function loadableImage(src: string): boolean {
  try {
    const url = new URL(src, window.location.href);
    return url.origin === window.location.origin || ["data:", "blob:"].includes(url.protocol);
  } catch {
    return false;
  }
}

// An image from elsewhere would only be refused by the policy (a console error): it is not
// requested at all; its address stays in the title, its alt text shows in its place.
DOMPurify.addHook("uponSanitizeAttribute", (node, data) => {
  if (node.tagName !== "IMG" || data.attrName !== "src" || loadableImage(data.attrValue)) return;
  data.keepAttr = false;
  node.setAttribute("title", data.attrValue);
});

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && node.getAttribute("href")) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(stripEventHandlers(html), {
    FORBID_TAGS: ["style", "form", "input", "button", "iframe", "object", "embed"],
    FORBID_ATTR: ["style"],
  });
}

export function Markdown({ text, className }: { text: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return (
    <div
      className={`markdown ${className ?? ""}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by DOMPurify just above
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
