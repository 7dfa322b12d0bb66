// An API refusal shown where it happened: the sentence, the stable code, and the extras that
// help an operator act (a load failure's stage and detail, the pools that exist, field errors).
import { ApiError } from "../api/client.ts";
import { issueText } from "./human-errors.ts";

const EXTRAS = ["target", "stage", "path", "workflow", "action", "panel"] as const;

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function ErrorNote({ error, compact }: { error: unknown; compact?: boolean }) {
  if (!error) return null;
  if (!(error instanceof ApiError)) {
    return <div className="error-note">{errorText(error)}</div>;
  }
  const body = error.body;
  // A detail the sentence already says is not repeated below it.
  const detail =
    typeof body.detail === "string" && !error.message.includes(body.detail.trim())
      ? body.detail
      : null;
  const pools = Array.isArray(body.pools) ? (body.pools as string[]) : null;
  return (
    <div className="error-note" role="alert" data-code={error.code}>
      <div className="error-head">
        <span>{error.message}</span>
        <code className="chip chip-error">{error.code}</code>
      </div>
      {!compact && (
        <>
          {EXTRAS.filter((k) => typeof body[k] === "string").map((k) => (
            <div key={k} className="error-extra">
              <span className="muted">{k}</span> <code>{String(body[k])}</code>
            </div>
          ))}
          {pools && (
            <div className="error-extra">
              <span className="muted">pools</span> <code>{pools.join(", ") || "none"}</code>
            </div>
          )}
          {detail && <pre className="error-detail">{detail}</pre>}
          {error.issues.length > 0 && (
            <ul className="error-issues">
              {error.issues.map((i) => (
                <li key={`${i.loc.join(".")}:${i.msg}`} data-loc={i.loc.join(".")}>
                  {issueText(i)}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
