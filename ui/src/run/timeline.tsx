// The run as a Gantt chart: one row per node (a lane more where its attempts overlap, as
// fanned-out branches do), a bar per attempt from its creation to its end, split into what it
// was doing: working (solid), waiting on a person, sleeping, in a retry's backoff (hatched),
// queued for a slot (outline). Each attempt's outcome is its status badge (colour and text)
// beside the row, and the bar's end cap in the same colour.
import type { TaskView } from "../api/types.ts";
import { StatusBadge, toneOf } from "../components/status.tsx";
import { formatTime } from "../components/time.tsx";
import { PHASE_TEXT, type PhaseKind, span, type TaskPhases, totalsText } from "./phases.ts";
import { openTask } from "./tasks-table.tsx";

const LEGEND: PhaseKind[] = ["working", "person", "sleeping", "backoff", "queued"];

interface Row {
  node: string;
  lanes: TaskPhases[][];
}

/** Rows in the order nodes first ran; attempts in the first lane free when they start. */
function rowsOf(list: TaskPhases[]): Row[] {
  const rows = new Map<string, Row>();
  for (const tp of list) {
    let row = rows.get(tp.task.node);
    if (!row) {
      row = { node: tp.task.node, lanes: [] };
      rows.set(tp.task.node, row);
    }
    const from = Date.parse(tp.task.created);
    const lane = row.lanes.find((l) => {
      const last = l.at(-1);
      return last && (last.phases.at(-1)?.to ?? 0) <= from;
    });
    if (lane) lane.push(tp);
    else row.lanes.push([tp]);
  }
  return [...rows.values()];
}

function outcome(task: TaskView): string {
  return task.status === "dead_letter" ? "dead-lettered" : task.status.replace("_", " ");
}

export function Timeline({ phases }: { phases: TaskPhases[] }) {
  if (!phases.length) return <div className="empty muted">No attempts yet.</div>;
  const start = Math.min(...phases.map((p) => Date.parse(p.task.created)));
  const end = Math.max(start + 1, ...phases.flatMap((p) => p.phases.map((ph) => ph.to)));
  const pct = (t: number) => `${(((t - start) / (end - start)) * 100).toFixed(3)}%`;
  const width = (a: number, b: number) => `${(((b - a) / (end - start)) * 100).toFixed(3)}%`;
  return (
    <div className="timeline" data-timeline>
      <div className="timeline-legend">
        {LEGEND.map((k) => (
          <span key={k} className="legend-item">
            <span className={`seg-swatch seg-${k}`} aria-hidden="true" />
            {PHASE_TEXT[k]}
          </span>
        ))}
        <span className="muted timeline-span">
          {formatTime(new Date(start).toISOString())} · {span(end - start)}
        </span>
      </div>
      <ul className="timeline-rows">
        {rowsOf(phases).map((row) => (
          <li key={row.node} className="timeline-row" data-node={row.node}>
            <div className="timeline-label">
              <code>{row.node}</code>
            </div>
            <div className="timeline-track">
              {row.lanes.map((lane, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: lanes have no identity of their own
                <div key={i} className="timeline-lane">
                  {lane.map((tp) => {
                    const from = Date.parse(tp.task.created);
                    const to = tp.phases.at(-1)?.to ?? from;
                    const summary = `#${tp.task.id} attempt ${tp.task.attempt}: ${outcome(tp.task)}, ${totalsText(tp.totals)}`;
                    return (
                      <button
                        type="button"
                        key={tp.task.id}
                        className={`timeline-bar tone-${toneOf(tp.task.status)}`}
                        data-task-id={tp.task.id}
                        data-status={tp.task.status}
                        style={{ left: pct(from), width: width(from, to) }}
                        title={summary}
                        aria-label={summary}
                        onClick={() => openTask(tp.task.id)}
                      >
                        {tp.phases.map((ph) => (
                          <span
                            key={`${ph.kind}-${ph.from}`}
                            className={`seg seg-${ph.kind}`}
                            data-phase={ph.kind}
                            style={{
                              left: `${(((ph.from - from) / Math.max(1, to - from)) * 100).toFixed(3)}%`,
                              width: `${(((ph.to - ph.from) / Math.max(1, to - from)) * 100).toFixed(3)}%`,
                            }}
                          />
                        ))}
                      </button>
                    );
                  })}
                </div>
              ))}
            </div>
            <div className="timeline-outcomes">
              {row.lanes.flat().map((tp) => (
                <span key={tp.task.id} className="timeline-outcome" data-task-id={tp.task.id}>
                  <span className="muted num">#{tp.task.attempt}</span>
                  <StatusBadge status={tp.task.status} />
                  <span className="muted timeline-took">{totalsText(tp.totals)}</span>
                </span>
              ))}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
