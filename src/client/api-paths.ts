// What a call to one route takes and answers, read off the generated `paths` (openapi.ts), so a
// client call names a documented path and method and gets the route's own types back: its path
// parameters, query, JSON body and success body. Types only.
import type { paths } from "./openapi.ts";

export type HttpMethod = "GET" | "PUT" | "POST" | "DELETE" | "PATCH";

/** An event stream never ends: it is read by EventSource or a streaming request instead. */
type IsStream<Op> = Op extends {
  responses: { 200: { content: { "text/event-stream": unknown } } };
}
  ? true
  : false;

/** The documented paths that answer `method` with a whole body (event streams left out). */
export type PathsOf<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends Record<Lowercase<M>, infer Op>
    ? IsStream<Op> extends true
      ? never
      : P
    : never;
}[keyof paths];

/** The generated operation of `method` on `path`. */
export type OperationOf<P extends keyof paths, M extends HttpMethod> = paths[P][Lowercase<M> &
  keyof paths[P]];

type ParametersOf<Op> = Op extends { parameters: infer X } ? X : never;
type Member<T, K extends string> = T extends { [key in K]?: infer V } ? NonNullable<V> : never;

/** `{run_id: string}` for `/api/runs/{run_id}`; never when the path has no parameters. */
export type PathParamsOf<Op> = Member<ParametersOf<Op>, "path">;
export type QueryOf<Op> = Member<ParametersOf<Op>, "query">;
/** The request headers the route documents (`idempotency-key` of a submit). */
export type HeadersOf<Op> = Member<ParametersOf<Op>, "header">;
type JsonBody<R> = [R] extends [never]
  ? never
  : R extends { content: { "application/json": infer B } }
    ? B
    : never;
/** The JSON request body; never when the route reads none (`requestBody?: never`). */
export type BodyOf<Op> = Op extends { requestBody?: infer R } ? JsonBody<NonNullable<R>> : never;

type SuccessStatus = 200 | 201 | 202 | 204;
type ContentOf<R> = R extends { content: { "application/json": infer B } }
  ? B
  : R extends { content: { "text/plain": infer T } }
    ? T
    : undefined;
/** The body of the route's success answer (undefined for a 204). */
export type ResponseOf<Op> = Op extends { responses: infer R }
  ? { [S in keyof R & SuccessStatus]: ContentOf<R[S]> }[keyof R & SuccessStatus]
  : never;

type Present<T> = [T] extends [never] ? false : true;

/**
 * What a call takes besides method and path: `params` when the path has parameters, `body`
 * when the route reads one (required when the schema says so), `query` when it has any.
 */
export type RequestOptions<Op> = (Present<PathParamsOf<Op>> extends true
  ? { params: PathParamsOf<Op> }
  : { params?: never }) &
  (Present<BodyOf<Op>> extends true
    ? Op extends { requestBody: object }
      ? { body: BodyOf<Op> }
      : { body?: BodyOf<Op> }
    : { body?: never }) &
  (Present<QueryOf<Op>> extends true ? { query?: QueryOf<Op> } : { query?: never }) &
  (Present<HeadersOf<Op>> extends true ? { headers?: HeadersOf<Op> } : { headers?: never }) & {
    /** Aborting it abandons the call (the promise rejects with the signal's reason). */
    signal?: AbortSignal;
  };

/** Options may be left out when nothing in them is required. */
export type OptionsArg<Op> =
  {} extends RequestOptions<Op> ? [options?: RequestOptions<Op>] : [options: RequestOptions<Op>];
