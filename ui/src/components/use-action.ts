// Runs one operator action: disables its button while in flight, toasts the outcome, and keeps
// the refusal so the view can show it next to the control that caused it.
import { useCallback, useState } from "react";
import { errorText } from "./error-note.tsx";
import { toast } from "./toast.tsx";

export function useAction() {
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
        toast(errorText(err), "error");
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [],
  );
  return { busy, error, run, clear: () => setError(null) };
}
