// The one way the console talks to the server: fetch with the bearer token when we have one.
// Every refusal becomes an ApiError carrying the contract's `{error, code, ...extras}` body, so
// views can branch on `code` and show `errors[].loc` next to the field they name.
import { getToken, onTokenChange, requireToken, tokenNeeded } from "./token.ts";
import type { Me, ValidationIssue } from "./types.ts";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>) {
    super(typeof body.error === "string" ? body.error : `HTTP ${status}`);
    this.status = status;
    this.code = typeof body.code === "string" ? body.code : `http_${status}`;
    this.body = body;
  }

  get issues(): ValidationIssue[] {
    return Array.isArray(this.body.errors) ? (this.body.errors as ValidationIssue[]) : [];
  }
}

export function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { error: text.slice(0, 300), code: `http_${res.status}` };
  }
}

let firstLook: Promise<void> | null = null;

/**
 * Resolves once calls can carry an accepted credential: after the first /api/me (which needs
 * none), and while the token prompt is up, once a token is typed. On a server that wants a
 * token, a fresh tab would otherwise send every first call bare, each a 401 in the console.
 */
export async function authorized(): Promise<void> {
  firstLook ??= api<Me>("GET", "/api/me").then(
    (me) => {
      if (me.auth === "token" && !me.authenticated) requireToken();
    },
    // An unreachable server: let each call go and report that itself.
    () => {},
  );
  await firstLook;
  while (tokenNeeded()) {
    await new Promise<void>((resolve) => {
      const off = onTokenChange(() => {
        off();
        resolve();
      });
    });
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await call<T>(method, path, body)).data;
}

async function call<T>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ data: T; headers: Headers }> {
  if (path !== "/api/me") await authorized();
  const headers: Record<string, string> = { ...authHeaders(), accept: "application/json" };
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, { error: "The server cannot be reached.", code: "network" });
  }
  const parsed = await parse(res);
  if (res.ok) return { data: parsed as T, headers: res.headers };
  if (res.status === 401) requireToken();
  const errorBody =
    parsed && typeof parsed === "object"
      ? (parsed as Record<string, unknown>)
      : { error: String(parsed) };
  throw new ApiError(res.status, errorBody);
}

export const get = <T>(path: string) => api<T>("GET", path);

/** One page of a paged list: its items and the cursor of the next page, null after the last. */
export interface Page<T> {
  items: T[];
  next: string | null;
}

/** A GET of a paged list (`limit`), reading the next page's cursor from its header. */
export async function getPage<T>(path: string): Promise<Page<T>> {
  const { data, headers } = await call<T[]>("GET", path);
  return { items: data, next: headers.get("x-service-next-cursor") };
}
export const post = <T>(path: string, body: unknown = {}) => api<T>("POST", path, body);

/** `?a=1&b=2` from the defined entries, or "" when there are none. */
export function query(
  params: Record<string, string | number | boolean | null | undefined>,
): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== "") search.set(k, String(v));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

export const enc = encodeURIComponent;
