// One step of a store's versioned schema (each store keeps its own list and applies it its way).
export interface Migration {
  /** 1, 2, 3, ... in order; never renumber or edit a released step, add a new one. */
  version: number;
  name: string;
  sql: string;
}
