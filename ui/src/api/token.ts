// The operator token lives in sessionStorage: it survives reloads of this tab and is gone when
// the tab closes. Whoever needs to know (the prompt, the event stream) subscribes to changes.

const KEY = "yardmaster.token";
type Listener = () => void;
const listeners = new Set<Listener>();
let needed = false;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function getToken(): string | null {
  return storage()?.getItem(KEY) ?? null;
}

export function setToken(token: string | null): void {
  if (token) storage()?.setItem(KEY, token);
  else storage()?.removeItem(KEY);
  needed = false;
  for (const l of listeners) l();
}

/** Whether the server refused our credential and the operator must type a token. */
export function tokenNeeded(): boolean {
  return needed;
}

/** Called on any 401 (or /api/me saying we are not authenticated): ask, once. */
export function requireToken(): void {
  if (needed) return;
  needed = true;
  for (const l of listeners) l();
}

export function onTokenChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
