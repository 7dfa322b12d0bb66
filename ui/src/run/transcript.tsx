// The live agent transcript of one attempt: chunks from GET /api/tasks/{id}/stream, then more
// each time a `task.stream` event for this task says new ones were stored (`seq_to`).
import { useCallback, useEffect, useRef, useState } from "react";
import { get } from "../api/client.ts";
import type { RejectedSubmission, StreamChunk, StreamOut } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { humanMessage } from "../components/human-errors.ts";
import { Markdown } from "../components/markdown.tsx";
import { onStream } from "../live/event-stream.ts";

const PAGE = 500;

function useTranscript(taskId: number) {
  const [chunks, setChunks] = useState<StreamChunk[]>([]);
  const [live, setLive] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const last = useRef(0);
  const busy = useRef<Promise<void> | null>(null);

  const pull = useCallback(async () => {
    for (;;) {
      const page = await get<StreamOut>(
        `/api/tasks/${taskId}/stream?after=${last.current}&limit=${PAGE}`,
      );
      const fresh = page.chunks.filter((c) => c.seq > last.current);
      if (fresh.length) {
        last.current = fresh[fresh.length - 1].seq;
        setChunks((old) => [...old, ...fresh]);
      }
      setLive(page.live);
      if (page.chunks.length < PAGE || last.current >= page.last_seq) return;
    }
  }, [taskId]);

  const follow = useCallback(() => {
    // One pull at a time; a signal during a pull schedules exactly one more.
    const run = async () => {
      try {
        await pull();
        setError(null);
      } catch (err) {
        setError(err);
      }
    };
    busy.current = (busy.current ?? Promise.resolve()).then(run);
  }, [pull]);

  useEffect(() => {
    last.current = 0;
    setChunks([]);
    follow();
    return onStream((s) => {
      if (s.type !== "event") {
        if (s.type === "resync" || s.type === "restart") follow();
        return;
      }
      if (s.event.task_id !== taskId) return;
      const to = s.event.data.seq_to;
      if (s.event.name === "task.stream" && typeof to === "number" && to <= last.current) return;
      follow();
    });
  }, [taskId, follow]);

  return { chunks, live, error };
}

interface Block {
  kind: StreamChunk["kind"];
  text: string;
  seq: number;
  created: string;
}

/** Consecutive text or thought chunks (streamed tokens) read as one paragraph. */
function blocks(chunks: StreamChunk[]): Block[] {
  const out: Block[] = [];
  for (const c of chunks) {
    const prev = out[out.length - 1];
    if (prev && prev.kind === c.kind && (c.kind === "text" || c.kind === "thought"))
      prev.text += c.text;
    else out.push({ kind: c.kind, text: c.text, seq: c.seq, created: c.created });
  }
  return out;
}

const LABEL: Record<string, string> = {
  thought: "thinking",
  tool_call: "tool call",
  tool_result: "tool result",
  notice: "notice",
};

type Line = { block: Block } | { rejected: RejectedSubmission };

/** The transcript's blocks with the rejected submissions placed among them by time. */
function lines(blocks: Block[], rejected: RejectedSubmission[]): Line[] {
  const out: Line[] = [];
  let r = 0;
  for (const block of blocks) {
    while (r < rejected.length && Date.parse(rejected[r].created) < Date.parse(block.created)) {
      out.push({ rejected: rejected[r++] });
    }
    out.push({ block });
  }
  while (r < rejected.length) out.push({ rejected: rejected[r++] });
  return out;
}

export function Transcript({
  taskId,
  rejected = [],
}: {
  taskId: number;
  rejected?: RejectedSubmission[];
}) {
  const { chunks, live, error } = useTranscript(taskId);
  const box = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever chunks arrive
  useEffect(() => {
    const el = box.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [chunks.length]);
  return (
    <div className="transcript-wrap">
      <div className="transcript-head">
        <span className={live ? "conn conn-live" : "conn conn-idle"}>
          <span className="dot" aria-hidden="true" />
          {live ? "streaming" : "ended"}
        </span>
        <span className="muted small">{chunks.length} chunks</span>
      </div>
      <ErrorNote error={error} compact />
      <div
        className="transcript"
        ref={box}
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {chunks.length === 0 && rejected.length === 0 && (
          <div className="muted small">No transcript for this attempt.</div>
        )}
        {lines(blocks(chunks), rejected).map((line) => {
          if ("rejected" in line) {
            const n = line.rejected.errors.length;
            return (
              <div
                key={`r${line.rejected.event_id}`}
                className="chunk chunk-rejected"
                data-chunk="rejected"
              >
                <span className="chunk-label">submission rejected</span>
                <div className="chunk-text">
                  {n} validation error{n === 1 ? "" : "s"}:{" "}
                  {line.rejected.errors
                    .map((e) => `${e.loc.join(".") || "(root)"}: ${humanMessage(e.msg)}`)
                    .join("; ")}
                </div>
              </div>
            );
          }
          const b = line.block;
          return (
            <div key={b.seq} className={`chunk chunk-${b.kind}`} data-chunk={b.kind}>
              {b.kind !== "text" && <span className="chunk-label">{LABEL[b.kind] ?? b.kind}</span>}
              {b.kind === "text" ? (
                <Markdown text={b.text} className="chunk-text" />
              ) : (
                <div className="chunk-text">{b.text}</div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
