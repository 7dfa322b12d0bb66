// The browser tab's title, per page: "Runs · Yardmaster", the run's title on a run page, and
// "Inbox (3) · Yardmaster" with the open requests. While requests wait, every other page's title
// starts with their count too, so a background tab shows that someone is asked something.
import { useEffect } from "react";
import { enc, get } from "../api/client.ts";
import type { RequestView, RunDetail } from "../api/types.ts";
import { useQuery } from "../live/query-cache.ts";
import { match } from "../router.tsx";

const APP = "Yardmaster";

/** The page's own part of the title, from its path (and the run's title once it is known). */
export function pageTitle(path: string, runTitle: string | undefined): string | null {
  const run = match("/runs/:id", path);
  if (run) return runTitle ?? `Run ${run.id}`;
  const wf = match("/workflows/:name", path);
  if (wf) return `${wf.name} · Workflows`;
  const fixed: Record<string, string> = {
    "/runs": "Runs",
    "/inbox": "Inbox",
    "/workflows": "Workflows",
    "/panels": "Panels",
  };
  if (path === "/" || path === "") return null;
  return fixed[path] ?? "Not found";
}

export function tabTitle(page: string | null, open: number, inbox: boolean): string {
  if (inbox) return open ? `Inbox (${open}) · ${APP}` : `Inbox · ${APP}`;
  const base = page ? `${page} · ${APP}` : APP;
  return open ? `(${open}) ${base}` : base;
}

/** Keeps document.title in step with the page; shares the run and inbox queries the pages use. */
export function useTabTitle(path: string): void {
  const runId = match("/runs/:id", path)?.id ?? null;
  // The same keys as the run page and the sidebar: one entry, one request.
  const run = useQuery(runId ? `run/${runId}` : null, () =>
    get<RunDetail>(`/api/runs/${enc(runId ?? "")}`),
  );
  const inbox = useQuery("inbox", () => get<RequestView[]>("/api/requests?pending=true"));
  const open = inbox.data?.length ?? 0;
  const title = tabTitle(pageTitle(path, run.data?.title), open, path === "/inbox");
  useEffect(() => {
    document.title = title;
  }, [title]);
}
