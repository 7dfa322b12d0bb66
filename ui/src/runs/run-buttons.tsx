// The run's lifecycle buttons. `compact` draws icon-only buttons for a table row.
import type { RunSummary } from "../api/types.ts";
import { Icon } from "../components/icons.tsx";
import { toast } from "../components/toast.tsx";
import { useAction } from "../components/use-action.ts";
import { navigate } from "../router.tsx";
import {
  canCancel,
  cancelRun,
  canPause,
  canResume,
  deleteRun,
  pauseRun,
  resumeRun,
} from "./run-actions.ts";

export function RunButtons({
  run,
  compact,
  afterDelete,
}: {
  run: RunSummary;
  compact?: boolean;
  afterDelete?: string;
}) {
  const { busy, run: act } = useAction();
  const go = (fn: (r: RunSummary) => Promise<string | null>, then?: () => void) => async () => {
    const message = await act(() => fn(run));
    if (message) {
      toast(message);
      then?.();
    }
  };
  const cls = compact ? "icon-btn" : "btn";
  const label = (text: string) => (compact ? null : <span>{text}</span>);
  return (
    <div className={compact ? "row-actions" : "btn-row"}>
      {canResume(run) ? (
        <button
          type="button"
          className={cls}
          disabled={busy}
          onClick={go(resumeRun)}
          title="Resume"
          aria-label="Resume"
        >
          <Icon name="play" />
          {label("Resume")}
        </button>
      ) : (
        <button
          type="button"
          className={cls}
          disabled={busy || !canPause(run)}
          onClick={go(pauseRun)}
          title="Pause: no new attempt starts; one already running finishes"
          aria-label="Pause"
        >
          <Icon name="pause" />
          {label("Pause")}
        </button>
      )}
      <button
        type="button"
        className={cls}
        disabled={busy || !canCancel(run)}
        onClick={go(cancelRun)}
        title="Cancel"
        aria-label="Cancel"
      >
        <Icon name="stop" />
        {label("Cancel")}
      </button>
      <button
        type="button"
        className={`${cls} danger-hover`}
        disabled={busy}
        onClick={go(deleteRun, afterDelete ? () => navigate(afterDelete) : undefined)}
        title="Delete"
        aria-label="Delete"
      >
        <Icon name="trash" />
        {label("Delete")}
      </button>
    </div>
  );
}
