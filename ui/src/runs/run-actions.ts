// Pause, resume, cancel and delete, shared by the runs list and the run page. The destructive
// two ask first.
import { api, enc, post } from "../api/client.ts";
import type { RunSummary } from "../api/types.ts";
import { confirmAction } from "../components/dialog.tsx";
import { invalidate } from "../live/query-cache.ts";

export const ENDED = new Set(["completed", "failed", "cancelled"]);
export const canPause = (r: RunSummary) => r.status === "queued" || r.status === "running";
export const canResume = (r: RunSummary) => r.status === "paused";
export const canCancel = (r: RunSummary) => !ENDED.has(r.status);

const refresh = (r: RunSummary) => invalidate(["runs", `run/${r.id}`, `graph/${r.id}`, "inbox"]);

export async function pauseRun(r: RunSummary): Promise<string> {
  await post(`/api/runs/${enc(r.id)}/pause`);
  refresh(r);
  // Pausing stops new claims only: say so, or a still-running attempt looks like a failed pause.
  return r.status === "running"
    ? `Paused “${r.title}”: no new attempt starts; one already running finishes`
    : `Paused “${r.title}”`;
}

export async function resumeRun(r: RunSummary): Promise<string> {
  await post(`/api/runs/${enc(r.id)}/resume`);
  refresh(r);
  return `Resumed “${r.title}”`;
}

/** Resolves to null when the operator changed their mind. */
export async function cancelRun(r: RunSummary): Promise<string | null> {
  const ok = await confirmAction({
    title: "Cancel this run?",
    body: `“${r.title}” stops now: every outstanding attempt is cancelled. Its history stays.`,
    confirm: "Cancel run",
    keep: "Keep it running",
  });
  if (!ok) return null;
  const res = await post<{ note?: string | null }>(`/api/runs/${enc(r.id)}/cancel`);
  refresh(r);
  return res.note ? `Cancelled: ${res.note}` : `Cancelled “${r.title}”`;
}

export async function deleteRun(r: RunSummary): Promise<string | null> {
  const ok = await confirmAction({
    title: "Delete this run?",
    body: `“${r.title}” and everything under it (tasks, log, requests, events) is removed for good.`,
    confirm: "Delete run",
    keep: "Keep the run",
  });
  if (!ok) return null;
  await api("DELETE", `/api/runs/${enc(r.id)}`);
  invalidate(["runs", "inbox"]);
  return `Deleted “${r.title}”`;
}
