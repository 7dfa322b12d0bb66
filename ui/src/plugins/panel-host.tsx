// One plugin panel: fetches its data route with the scope's ids, refreshes when an event
// matches its `refresh_on` globs, and draws it by kind. Unknown kinds get a placeholder card.
import { useEffect } from "react";
import { get, query } from "../api/client.ts";
import type { PanelOut } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { matchesAny } from "../live/event-names.ts";
import { onStream } from "../live/event-stream.ts";
import { markStale, useQuery } from "../live/query-cache.ts";
import { CustomPanel } from "./custom-panel.tsx";
import { FormPanel } from "./form-panel.tsx";
import { DATA_KINDS, DataPanel } from "./kinds.tsx";
import { type PlacedPanel, panelTitle } from "./manifest.ts";

export interface PanelScope {
  run_id?: string | null;
  task_id?: number | null;
  node?: string | null;
}

const scopeKey = (s: PanelScope) => `${s.run_id ?? ""}:${s.task_id ?? ""}:${s.node ?? ""}`;

/** Refetch on a matching event of our run (or of no run), and on gaps for wildcard plugin globs. */
export function useRefresh(panel: PanelOut, scope: PanelScope, refetch: () => void): void {
  const globs = (panel.refresh_on ?? []).join(",");
  const run = scope.run_id ?? null;
  useEffect(() => {
    const list = globs ? globs.split(",") : [];
    if (!list.length) return;
    const wildPlugin = list.some((g) => g.startsWith("plugin.") && g.includes("*"));
    return onStream((s) => {
      if (s.type === "gap" && wildPlugin) refetch();
      if (s.type !== "event" || !matchesAny(list, s.event.name)) return;
      if (run && s.event.run_id && s.event.run_id !== run) return;
      refetch();
    });
  }, [globs, run, refetch]);
}

function DataHost({ placed, scope }: { placed: PlacedPanel; scope: PanelScope }) {
  const { panel, workflow } = placed;
  const source = panel.source ?? "";
  const key = `panel/${workflow}/${panel.name}/${scopeKey(scope)}`;
  // Its `refresh_on` events are heard only while the panel is shown: a hidden tab may miss
  // some, so a panel leaving the screen refetches when it comes back.
  useEffect(() => () => markStale(key), [key]);
  const data = useQuery(key, () =>
    get<unknown>(
      source + query({ run_id: scope.run_id, task_id: scope.task_id, node: scope.node }),
    ),
  );
  useRefresh(panel, scope, data.refetch);
  if (data.error) return <ErrorNote error={data.error} compact />;
  if (data.data === undefined) return <div className="muted small">Loading…</div>;
  return <DataPanel kind={panel.kind} value={data.data} />;
}

/** Whether the place has the id the panel's declared scope needs (docs/plugins.md, Scope). */
function resolved(panel: PanelOut, scope: PanelScope): boolean {
  if (panel.scope === "run") return Boolean(scope.run_id);
  if (panel.scope === "task") return scope.task_id != null;
  if (panel.scope === "node") return Boolean(scope.node);
  return true;
}

function Body({ placed, scope }: { placed: PlacedPanel; scope: PanelScope }) {
  const kind = placed.panel.kind;
  // Without its id a panel could only be refused (422), or hand its element a null id: a node
  // drawer knows its last attempt once the graph is in, and a node never run has none.
  if (!resolved(placed.panel, scope))
    return (
      <div className="muted small" data-scope-pending={placed.panel.scope}>
        Nothing to show yet: no {placed.panel.scope} to show it for.
      </div>
    );
  if ((DATA_KINDS as readonly string[]).includes(kind))
    return <DataHost placed={placed} scope={scope} />;
  if (kind === "form") return <FormPanel placed={placed} scope={scope} />;
  if (kind === "custom") return <CustomPanel placed={placed} scope={scope} />;
  return (
    <div className="placeholder" data-unknown-kind={kind}>
      This console cannot draw panels of kind <code>{kind}</code> yet.
    </div>
  );
}

export function PanelHost({
  placed,
  scope,
  bare,
}: {
  placed: PlacedPanel;
  scope: PanelScope;
  bare?: boolean;
}) {
  const { panel, workflow } = placed;
  const attrs = { "data-panel": panel.name, "data-kind": panel.kind, "data-workflow": workflow };
  if (bare) {
    return (
      <div className="panel-pane" {...attrs}>
        <Body placed={placed} scope={scope} />
      </div>
    );
  }
  return (
    <section className="card panel-card" {...attrs} aria-label={panel.name}>
      <h3 className="card-title">
        {panelTitle(panel.name)}
        <span className="chip chip-quiet">{workflow === "_builtin" ? "builtin" : workflow}</span>
      </h3>
      <Body placed={placed} scope={scope} />
    </section>
  );
}
