// Where plugin panels appear: `usePanels` picks a slot's panels from the manifest, `PanelList`
// renders them (cards boxed with a title, panes bare inside a tab).
import { useMemo } from "react";
import type { Slot } from "../api/types.ts";
import { type PlacedPanel, selectPanels, useManifest } from "./manifest.ts";
import { PanelHost, type PanelScope } from "./panel-host.tsx";

export function usePanels(
  workflow: string | null,
  slot: Slot,
  placement: "pane" | "card" | null,
): PlacedPanel[] {
  const manifest = useManifest();
  return useMemo(
    () => selectPanels(manifest.data ?? [], workflow, slot, placement),
    [manifest.data, workflow, slot, placement],
  );
}

export function PanelList({
  panels,
  scope,
  bare,
}: {
  panels: PlacedPanel[];
  scope: PanelScope;
  bare?: boolean;
}) {
  if (!panels.length) return null;
  return (
    <div className={bare ? "panels panels-bare" : "panels"}>
      {panels.map((p) => (
        <PanelHost key={`${p.workflow}/${p.panel.name}`} placed={p} scope={scope} bare={bare} />
      ))}
    </div>
  );
}
