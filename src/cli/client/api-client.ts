// The CLI's client of the public HTTP API: the typed client (src/client/) with every call bounded
// by a timeout, so a server that accepts the connection and then says nothing cannot hang a
// script, and fetch's own failures worded as the commands report them (Unreachable, Interrupted).
import type { HttpMethod, OperationOf, OptionsArg, PathsOf } from "../../client/api-paths.ts";
import { ApiRefusal } from "../../client/api-refusal.ts";
import { YardmasterClient } from "../../client/create-client.ts";
import { Unreachable } from "./client-errors.ts";
import { Interrupted } from "./client-io.ts";

export interface ClientSettings {
  /** Base address without a trailing slash, e.g. http://127.0.0.1:8420. */
  baseUrl: string;
  token?: string;
  /** Longest wait for one whole response. */
  timeoutMs: number;
}

export class ApiClient extends YardmasterClient {
  readonly settings: ClientSettings;

  constructor(settings: ClientSettings) {
    super(settings);
    this.settings = settings;
  }

  /** One request; a refusal (4xx, 5xx) throws ApiRefusal, no answer throws Unreachable. */
  override async request<M extends HttpMethod, P extends PathsOf<M>>(
    method: M,
    path: P,
    ...options: OptionsArg<OperationOf<P, M>>
  ) {
    try {
      return await super.request(method, path, ...options);
    } catch (error) {
      throw this.#translate(error, (options[0] as { signal?: AbortSignal } | undefined)?.signal);
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
