// A `custom` panel: the workflow's asset modules are imported (each once per page) and the
// panel's custom element is created. The element gets the scope as attributes (workflow,
// run-id, task-id, node) and as properties: `scope` ({workflow, run_id, task_id, node}), `api`
// (path => JSON, with the console's credentials; the contract docs/plugins.md gives authors)
// and `yardmaster` (workflow, scope and an authenticated `fetch`); on a `refresh_on` event its
// `refresh()` is called, if it has one, and it receives a `yardmaster-refresh` DOM event.
import { useCallback, useEffect, useRef, useState } from "react";
import { authHeaders, get } from "../api/client.ts";
import type { PlacedPanel } from "./manifest.ts";
import { type PanelScope, useRefresh } from "./panel-host.tsx";

const loaded = new Map<string, Promise<unknown>>();

function loadAsset(url: string): Promise<unknown> {
  let p = loaded.get(url);
  if (!p) {
    p = import(/* @vite-ignore */ url);
    loaded.set(url, p);
  }
  return p;
}

function defined(tag: string, ms: number): Promise<void> {
  return Promise.race([
    customElements.whenDefined(tag).then(() => undefined),
    new Promise<void>((_, reject) =>
      setTimeout(() => reject(new Error(`<${tag}> was not defined by the panel's assets`)), ms),
    ),
  ]);
}

type Host = HTMLElement & {
  refresh?: () => void;
  scope?: unknown;
  api?: (path: string) => Promise<unknown>;
  yardmaster?: unknown;
};

export function CustomPanel({ placed, scope }: { placed: PlacedPanel; scope: PanelScope }) {
  const box = useRef<HTMLDivElement>(null);
  const el = useRef<Host | null>(null);
  const [error, setError] = useState<string | null>(null);
  const tag = placed.panel.element ?? "";
  const assets = placed.entry.assets.join(" ");
  const key = `${scope.run_id ?? ""}:${scope.task_id ?? ""}:${scope.node ?? ""}`;
  useEffect(() => {
    let cancelled = false;
    const urls = assets ? assets.split(" ") : [];
    const [run_id, task_id, node] = key.split(":");
    const ids = {
      run_id: run_id || null,
      task_id: task_id ? Number(task_id) : null,
      node: node || null,
    };
    Promise.all(urls.map(loadAsset))
      .then(() => defined(tag, 5000))
      .then(() => {
        if (cancelled || !box.current) return;
        const host = document.createElement(tag) as Host;
        host.setAttribute("workflow", placed.workflow);
        if (ids.run_id) host.setAttribute("run-id", ids.run_id);
        if (ids.task_id !== null) host.setAttribute("task-id", String(ids.task_id));
        if (ids.node) host.setAttribute("node", ids.node);
        const authed = (path: string, init: RequestInit = {}) =>
          fetch(path, {
            ...init,
            headers: { ...authHeaders(), ...(init.headers as Record<string, string>) },
          });
        host.scope = { workflow: placed.workflow, ...ids };
        // `api(path)` of the element contract (docs/plugins.md): the console's own client.
        host.api = (path: string) => get<unknown>(path);
        host.yardmaster = { workflow: placed.workflow, scope: ids, fetch: authed };
        box.current.replaceChildren(host);
        el.current = host;
      })
      .catch(
        (err: unknown) => !cancelled && setError(err instanceof Error ? err.message : String(err)),
      );
    return () => {
      cancelled = true;
    };
  }, [tag, assets, key, placed.workflow]);
  const refresh = useCallback(() => {
    el.current?.refresh?.();
    el.current?.dispatchEvent(new CustomEvent("yardmaster-refresh"));
  }, []);
  useRefresh(placed.panel, scope, refresh);
  return (
    <div className="custom-panel">
      {error && <div className="error-note">{error}</div>}
      <div ref={box} />
    </div>
  );
}
