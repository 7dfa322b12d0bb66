// The plugin manifest (GET /api/plugins), refetched on every `workflow.*` event and after a
// server restart. A server without the plugin routes answers 404: that is an empty manifest.
import { ApiError, get } from "../api/client.ts";
import type { PanelOut, PluginManifestEntry, Slot } from "../api/types.ts";
import { listenToNames } from "../live/event-stream.ts";
import { useQuery } from "../live/query-cache.ts";

/** Builtin views this console draws natively (run output, work log, transcript). */
const NATIVE_BUILTINS = new Set(["output", "log", "transcript"]);
export const BUILTIN = "_builtin";

export interface PlacedPanel {
  workflow: string;
  panel: PanelOut;
  entry: PluginManifestEntry;
}

async function fetchManifest(): Promise<PluginManifestEntry[]> {
  try {
    const entries = await get<PluginManifestEntry[]>("/api/plugins");
    // Plugin events are named exactly by refresh_on globs without a wildcard: listen to them.
    listenToNames(
      entries
        .flatMap((e) => e.panels.flatMap((p) => p.refresh_on ?? []))
        .filter((g) => g.startsWith("plugin.") && !g.includes("*")),
    );
    return entries;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
}

export function useManifest() {
  return useQuery("plugins", fetchManifest);
}

/**
 * Panels for a slot: those of `workflow` (null: every workflow, for the global slot) and the
 * builtins the console does not already draw. `placement` null takes both.
 */
export function selectPanels(
  manifest: PluginManifestEntry[],
  workflow: string | null,
  slot: Slot,
  placement: "pane" | "card" | null,
): PlacedPanel[] {
  const out: PlacedPanel[] = [];
  for (const entry of manifest) {
    const builtin = entry.workflow === BUILTIN;
    if (!builtin && workflow !== null && entry.workflow !== workflow) continue;
    for (const panel of entry.panels) {
      if (panel.slot !== slot || (placement && panel.placement !== placement)) continue;
      if (builtin && NATIVE_BUILTINS.has(panel.name)) continue;
      out.push({ workflow: entry.workflow, panel, entry });
    }
  }
  return out;
}

/** `annotate_form` → "Annotate form": panel names are identifiers, tabs read as words. */
export function panelTitle(name: string): string {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
