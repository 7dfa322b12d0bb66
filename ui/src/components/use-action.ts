// Runs one operator action: disables its button while in flight, toasts the outcome, keeps the
// refusal so the view can show it next to the control that caused it, and refetches the page
// when the refusal says the page was out of date.
import { useCallback, useState } from "react";
import { ApiError } from "../api/client.ts";
import { invalidateAll } from "../live/query-cache.ts";
import { errorText } from "./error-note.tsx";
import { toast } from "./toast.tsx";

const STATE_REFUSALS = new Set([404, 409]);

/**
 * `showsErrors`: the view shows the refusal itself (a dialog's error note), so no toast repeats
 * it; a success is still toasted.
 */
export function useAction(options: { showsErrors?: boolean } = {}) {
  const { showsErrors = false } = options;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(
    async <T>(fn: () => Promise<T>, done?: string): Promise<T | undefined> => {
      setBusy(true);
      setError(null);
      try {
        const value = await fn();
        if (done) toast(done);
        return value;
      } catch (err) {
        setError(err);
        if (!showsErrors) toast(errorText(err), "error");
        // A 404 or 409 says the page is behind the server (another operator acted, a stream
        // event is still on its way): refetch what is shown so the stale control goes away.
        if (err instanceof ApiError && STATE_REFUSALS.has(err.status)) invalidateAll();
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [showsErrors],
  );
  return { busy, error, run, clear: () => setError(null) };
}
