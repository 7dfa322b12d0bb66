// The workflow's module text with line numbers; each node's line is marked and listed so the
// operator can jump to it. A 404 means the server cannot produce the source: say so.
import { useEffect, useRef } from "react";
import { ApiError, enc, get } from "../api/client.ts";
import type { SourceOut } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { useQuery } from "../live/query-cache.ts";

export function SourceView({ name, focus }: { name: string; focus: string | null }) {
  const src = useQuery(`source/${name}`, () =>
    get<SourceOut>(`/api/workflows/${enc(name)}/source`),
  );
  const box = useRef<HTMLDivElement>(null);
  const data = src.data;
  const line = focus ? data?.nodes[focus]?.line : undefined;
  useEffect(() => {
    if (line)
      box.current?.querySelector(`[data-line="${line}"]`)?.scrollIntoView({ block: "center" });
  }, [line]);
  if (src.error) {
    if (src.error instanceof ApiError && src.error.status === 404) {
      return (
        <div className="empty muted" data-source="missing">
          The server cannot show this workflow's source (built dynamically, or its file is gone).
        </div>
      );
    }
    return <ErrorNote error={src.error} />;
  }
  if (!data) return <div className="muted small">Loading source…</div>;
  const marks = new Map(Object.entries(data.nodes).map(([node, { line }]) => [line, node]));
  const jump = (n: number) =>
    box.current?.querySelector(`[data-line="${n}"]`)?.scrollIntoView({ block: "center" });
  return (
    <div className="source">
      <div className="source-bar">
        <code className="muted small">{data.file}</code>
        <span className="node-chips">
          {Object.entries(data.nodes).map(([node, { line }]) => (
            <button
              key={node}
              type="button"
              className="chip chip-node chip-btn"
              onClick={() => jump(line)}
            >
              {node} <span className="muted">:{line}</span>
            </button>
          ))}
        </span>
      </div>
      <div className="code" ref={box}>
        {data.source.split("\n").map((text, i) => {
          const n = i + 1;
          const node = marks.get(n);
          return (
            <div
              key={n}
              data-line={n}
              className={
                node
                  ? node === focus
                    ? "code-line node-line node-focus"
                    : "code-line node-line"
                  : "code-line"
              }
            >
              <span className="ln">{n}</span>
              <span className="lc">{text || " "}</span>
              {node && <span className="line-tag">{node}</span>}
            </div>
          );
        })}
      </div>
    </div>
  );
}
