import { hasBrand, setBrand } from "./brand.ts";

/**
 * The graph is wrong: a bad signature or option found at finalization, or a return value the
 * node's edges cannot route. Dead-letters the attempt at once; retrying cannot fix a graph.
 */
export class GraphError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "GraphError";
  }
}

/** Thrown deliberately by a body to dead-letter the attempt without using its retries. */
export class NonRetryable extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "NonRetryable";
  }
}

/** What a node timeout raises inside the attempt. An ordinary (retryable) failure. */
export class NodeTimeout extends Error {
  readonly seconds: number;
  constructor(seconds: number) {
    super(`node timed out after ${seconds}s`);
    this.name = "NodeTimeout";
    this.seconds = seconds;
  }
}

// On the prototypes, so user subclasses (`class Fatal extends NonRetryable`) carry them too.
setBrand(GraphError.prototype, "GraphError");
setBrand(NonRetryable.prototype, "NonRetryable");
setBrand(NodeTimeout.prototype, "NodeTimeout");

export function isGraphError(err: unknown): err is GraphError {
  return hasBrand(err, "GraphError");
}

export function isNonRetryable(err: unknown): err is NonRetryable {
  return hasBrand(err, "NonRetryable");
}

export function isNodeTimeout(err: unknown): err is NodeTimeout {
  return hasBrand(err, "NodeTimeout");
}
