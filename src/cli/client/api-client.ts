// A small client of the public HTTP API over fetch. Every call is bounded by a timeout, so a
// server that accepts the connection and then says nothing cannot hang a script.
import { ApiRefusal, Unreachable } from "./client-errors.ts";
import { Interrupted } from "./client-io.ts";

export interface ClientSettings {
  /** Base address without a trailing slash, e.g. http://127.0.0.1:8420. */
  baseUrl: string;
  token?: string;
  /** Longest wait for one whole response. */
  timeoutMs: number;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

export class ApiClient {
  readonly settings: ClientSettings;

  constructor(settings: ClientSettings) {
    this.settings = settings;
  }

  url(path: string, query: Query = {}): string {
    const url = new URL(this.settings.baseUrl + path);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.settings.token) headers.authorization = `Bearer ${this.settings.token}`;
    return { ...headers, ...extra };
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.call<T>("GET", path, { query }).then((r) => r.body);
  }

  post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.call<T>("POST", path, { body }).then((r) => r.body);
  }

  /** One request; a refusal (4xx, 5xx) throws ApiRefusal, no answer throws Unreachable. */
  async call<T>(
    method: string,
    path: string,
    options: { query?: Query; body?: unknown; signal?: AbortSignal } = {},
  ): Promise<ApiResponse<T>> {
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const init: RequestInit = { method, signal, headers: this.headers() };
    if (options.body !== undefined) {
      init.body = JSON.stringify(options.body);
      init.headers = this.headers({ "content-type": "application/json" });
    }
    try {
      const res = await fetch(this.url(path, options.query), init);
      const text = await res.text();
      const body = parseBody(text);
      if (!res.ok) throw new ApiRefusal(res.status, isObject(body) ? body : {});
      return { status: res.status, body: body as T, headers: res.headers };
    } catch (error) {
      throw this.#translate(error, options.signal);
    }
  }

  /** Turns fetch's own failures into the errors the commands report. */
  #translate(error: unknown, own?: AbortSignal): unknown {
    if (error instanceof ApiRefusal || error instanceof Unreachable) return error;
    if (own?.aborted) return own.reason instanceof Interrupted ? own.reason : new Interrupted();
    const where = this.settings.baseUrl;
    if (error instanceof DOMException && error.name === "TimeoutError") {
      return new Unreachable(`no answer from ${where} within ${this.settings.timeoutMs / 1000} s`);
    }
    if (error instanceof TypeError) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? error.message;
      return new Unreachable(`cannot reach ${where} (${why}); is \`yardmaster serve\` running?`);
    }
    return error;
  }
}

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return { error: text.slice(0, 200) };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
