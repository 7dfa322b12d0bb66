// What the running engine knows that is not in the store: the finalized graphs of registered
// workflows, the pools they dispatch on, and the server defaults for node options.
import type {
  Backoff,
  FinalGraph,
  FinalNode,
  LoadedWorkflow,
  Workflow,
} from "../authoring/index.ts";

export interface Pool {
  readonly name: string;
  readonly capacity: number;
  /** Slots leased now: attempts in progress on this pool (waiting attempts hold none). */
  inFlight: number;
  /**
   * Slots promised to a claim transaction under way (the dispatcher's, or a submit's), not yet
   * leased. They count against the capacity, so two claims cannot both take the same free
   * slot, but they are not reported as in flight: nothing runs on them.
   */
  reserved: number;
  /**
   * The slots this server may lease: the capacity, or where several servers share the store
   * its share of it, the capacity over the live servers rounded up (cluster.ts), so that work
   * spreads over the servers instead of staying with whichever holds the slots (a finishing
   * attempt hands its slot on). The capacity itself is counted over all servers by the claim.
   */
  share: number;
  /**
   * How many times the pool was woken (`Dispatcher.wake`): every new piece of claimable work
   * (an enqueue no claim took, a resume, another server's commit, a due timer) wakes it, so an
   * unchanged count says none arrived since.
   */
  wakes: number;
}

/** Slots of `pool` that no attempt holds and no claim under way was promised. */
export const freeSlots = (pool: Pool): number => pool.share - pool.inFlight - pool.reserved;

export interface RegisteredWorkflow {
  readonly name: string;
  readonly graph: FinalGraph;
  readonly workflow: Workflow;
  readonly pool: string;
  readonly target: string | null;
  readonly file: string | null;
  readonly loaded: LoadedWorkflow | null;
}

export interface NodeDefaults {
  retries: number;
  priority: number;
  /** The retry backoff of nodes that set none; null: retries are claimable at once. */
  backoff: Backoff | null;
}

export class Registry {
  readonly pools = new Map<string, Pool>();
  readonly workflows = new Map<string, RegisteredWorkflow>();

  constructor(
    pools: Record<string, { capacity: number }>,
    readonly defaults: NodeDefaults,
  ) {
    for (const [name, { capacity }] of Object.entries(pools)) {
      this.pools.set(name, { name, capacity, inFlight: 0, reserved: 0, share: capacity, wakes: 0 });
    }
  }

  workflowsOnPool(pool: string): string[] {
    const names: string[] = [];
    for (const wf of this.workflows.values()) if (wf.pool === pool) names.push(wf.name);
    return names;
  }

  node(workflow: string, node: string): FinalNode | undefined {
    return this.workflows.get(workflow)?.graph.nodes.get(node);
  }

  retriesOf(node: FinalNode): number {
    return node.retries ?? this.defaults.retries;
  }

  backoffOf(node: FinalNode): Backoff | null {
    return node.backoff ?? this.defaults.backoff;
  }

  priorityOf(node: FinalNode | undefined): { priority: number; explicit: boolean } {
    if (node?.priority != null) return { priority: node.priority, explicit: true };
    return { priority: this.defaults.priority, explicit: false };
  }
}
