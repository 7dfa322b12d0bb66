// Token mode: when /api/me says we are not authenticated, or any call answers 401, the console
// asks for the operator token once, keeps it in sessionStorage and refetches everything.
import { type FormEvent, type ReactNode, useState, useSyncExternalStore } from "react";
import { onTokenChange, setToken, tokenNeeded } from "../api/token.ts";
import type { Me } from "../api/types.ts";
import { Icon } from "../components/icons.tsx";
import { invalidateAll } from "../live/query-cache.ts";

function TokenPrompt() {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const token = value.trim();
    if (!token) return;
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/me", { headers: { authorization: `Bearer ${token}` } });
      const me = (await res.json()) as Me;
      if (!me.authenticated) {
        setError("The server did not accept this token.");
        return;
      }
      setToken(token);
      invalidateAll();
    } catch {
      setError("The server cannot be reached.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="token-wrap">
      <form className="token-card" onSubmit={submit}>
        <div className="token-icon">
          <Icon name="key" size={22} />
        </div>
        <h1>Operator token required</h1>
        <p className="muted">
          This server asks for its operator token. It is kept for this browser tab only.
        </p>
        <p className="muted token-where">
          The server keeps the current token in its <code>token_file</code> (by default{" "}
          <code>.yardmaster/operator-token</code> beside its configuration), or takes it from its
          own <code>YARDMASTER_TOKEN</code>. Copy it from there: rotating it would log out every
          other tab and client.
        </p>
        <label className="field">
          <span>Token</span>
          <input
            type="password"
            name="token"
            autoComplete="off"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            // biome-ignore lint/a11y/noAutofocus: the page has nothing else to do until this is filled
            autoFocus
            data-autofocus
          />
        </label>
        {error && (
          <div className="error-note" role="alert">
            {error}
          </div>
        )}
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={busy || !value.trim()}
        >
          Continue
        </button>
      </form>
    </div>
  );
}

/**
 * Renders its children, or the token prompt while the server wants a token we do not have
 * (`authorized()` in api/client.ts asks /api/me first and raises the prompt).
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const needed = useSyncExternalStore(onTokenChange, tokenNeeded);
  return needed ? <TokenPrompt /> : children;
}
