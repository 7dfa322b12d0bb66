// Registering, replacing and removing workflows on a serving engine (http-api.md Workflows 2,
// 4, 5). Operations run one at a time. Each checks everything first, then persists the
// configuration row when asked (a failed write leaves the engine untouched), then has the
// engine's registration command commit the store row, the in-memory registry and the
// `workflow.*` event together.
import {
  type Engine,
  type EventRecord,
  inFlightTasks,
  type RegisteredWorkflow,
} from "../../engine/index.ts";
import type { LoadedWorkflow, TargetPlace } from "../../loading/index.ts";
import { commanded, conflict, ServiceError } from "../errors.ts";
import type * as S from "../schemas/index.ts";
import { workflowView } from "../views/workflows.ts";
import type { Registered, WorkflowRegistrar } from "./api.ts";
import { loadFailed, loadForRegistration } from "./load.ts";
import { dropRow, persistPath, writeRow } from "./persist.ts";

export interface RegistrarOptions {
  engine: Engine;
  /** The server's configuration file; null when it started without one. */
  configFile: string | null;
  /** Folder targets are relative to (the configuration file's folder). */
  configDir: string;
  /** Folders a target must resolve into (`workflow_roots`); a registration outside is refused. */
  roots: readonly string[];
}

export function registeredWorkflow(
  loaded: LoadedWorkflow,
  pool: string,
  target: string | null,
): RegisteredWorkflow {
  const { graph, workflow, file } = loaded;
  return { name: graph.name, graph, workflow, pool, target, file, loaded };
}

export class Registrar implements WorkflowRegistrar {
  readonly #engine: Engine;
  readonly #place: TargetPlace;
  readonly #persistTo: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: RegistrarOptions) {
    this.#engine = options.engine;
    this.#place = { baseDir: options.configDir, roots: options.roots };
    this.#persistTo = persistPath(options.configFile, options.configDir);
  }

  /** One operation at a time: two registrations of one name must not both pass the check. */
  #serial<T>(op: () => Promise<T>): Promise<T> {
    const next = this.#queue.catch(() => {}).then(op);
    this.#queue = next;
    return next;
  }

  register(body: S.RegisterWorkflow): Promise<Registered<S.WorkflowOut>> {
    return this.#serial(async () => {
      const pool = this.#pool(body.pool);
      const loaded = await loadForRegistration(body.target, this.#place);
      const name = loaded.graph.name;
      if (this.#engine.registry.workflows.has(name)) {
        throw conflict(
          `Workflow ${name} is already registered; PUT /api/workflows/${name} replaces it.`,
          { workflow: name },
        );
      }
      const persisted = await this.#persist(body.persist, name, body.target, pool);
      const wf = registeredWorkflow(loaded, pool, body.target);
      await commanded(this.#engine.commands.bindWorkflow(wf, "workflow.registered"));
      return { value: this.#view(name), persisted };
    });
  }

  reload(name: string, body: S.ReloadWorkflow): Promise<Registered<S.WorkflowOut>> {
    return this.#serial(async () => {
      const current = this.#require(name);
      const target = body.target ?? current.target;
      if (target === null) {
        throw loadFailed(null, "target", `workflow ${name} has no recorded target; send one`);
      }
      const pool = body.pool == null ? current.pool : this.#pool(body.pool);
      const loaded = await loadForRegistration(target, this.#place, (defined) => {
        if (defined === name) return;
        throw conflict(
          `Target ${target} now defines workflow ${defined}, not ${name}; ` +
            "register it with POST /api/workflows.",
          { workflow: defined },
        );
      });
      if (pool !== current.pool) await this.#refuseMoveInFlight(name, current.pool, pool);
      const persisted = await this.#persist(body.persist, name, target, pool);
      const wf = registeredWorkflow(loaded, pool, target);
      await commanded(this.#engine.commands.bindWorkflow(wf, "workflow.replaced"));
      return { value: this.#view(name), persisted };
    });
  }

  remove(name: string, options: { persist: boolean }): Promise<Registered<S.RemovedWorkflowOut>> {
    return this.#serial(async () => {
      const current = this.#require(name);
      const removedRow = options.persist ? await dropRow(this.#persistTo, name) : false;
      const taskIds = await commanded(this.#engine.commands.unbindWorkflow(current.name));
      return {
        value: { workflow: name, task_ids: taskIds },
        persisted: removedRow ? this.#persistTo : null,
      };
    });
  }

  /**
   * Several servers share the store: another server registered, replaced or removed a
   * workflow (its `workflow.*` event). This server loads the same target into memory (or drops
   * the workflow); the store row and the event are the other server's. Answers the problem when
   * the target does not load here (the servers' files differ).
   */
  follow(event: EventRecord): Promise<Error | null> {
    return this.#serial(async () => {
      const data = event.data as { workflow?: string; target?: string | null; pool?: string };
      const name = data.workflow;
      if (typeof name !== "string") return null;
      if (event.name === "workflow.unregistered") {
        this.#engine.forget(name);
        return null;
      }
      return this.#adopt({ workflow: name, target: data.target ?? null, pool: data.pool ?? "" });
    });
  }

  /** At start beside running servers: loads the registrations they hold that this one lacks. */
  async adoptStored(): Promise<Error[]> {
    const problems: Error[] = [];
    for (const row of await this.#engine.store.listRegistrations()) {
      if (this.#engine.registry.workflows.has(row.workflow)) continue;
      const problem = await this.#serial(() => this.#adopt(row));
      if (problem) problems.push(problem);
    }
    return problems;
  }

  async #adopt(row: { workflow: string; target: string | null; pool: string }) {
    const current = this.#engine.registry.workflows.get(row.workflow);
    if (current && current.target === row.target && current.pool === row.pool) return null;
    if (row.target === null || !this.#engine.registry.pools.has(row.pool)) {
      return new Error(
        `workflow ${row.workflow}: no target, or pool ${row.pool} is not configured here`,
      );
    }
    try {
      const loaded = await loadForRegistration(row.target, this.#place);
      this.#engine.register(registeredWorkflow(loaded, row.pool, row.target));
      return null;
    } catch (err) {
      return new Error(`workflow ${row.workflow} (${row.target}): ${(err as Error).message}`);
    }
  }

  /** The requested pool, or the default one: `default` if it exists, else the first. */
  #pool(requested: string | null | undefined): string {
    const pools = [...this.#engine.registry.pools.keys()];
    const pool = requested ?? (pools.includes("default") ? "default" : pools[0]);
    if (pool !== undefined && pools.includes(pool)) return pool;
    throw new ServiceError(
      "unknown_pool",
      `Pool ${JSON.stringify(pool ?? null)} does not exist (registration never creates one); ` +
        `pools: ${pools.join(", ") || "none"}.`,
      { pool: pool ?? null, pools },
    );
  }

  #require(name: string): RegisteredWorkflow {
    const wf = this.#engine.registry.workflows.get(name);
    if (!wf) throw new ServiceError("unknown_workflow", `Workflow ${name} is not registered.`);
    return wf;
  }

  async #refuseMoveInFlight(name: string, from: string, to: string): Promise<void> {
    const going = await inFlightTasks(this.#engine.store, name);
    if (going.length === 0) return;
    throw conflict(
      `Workflow ${name} cannot move from pool ${from} to ${to} while ${going.length} ` +
        "attempt(s) of it are in flight; try again when they have finished.",
      { task_ids: going.map((t) => t.id) },
    );
  }

  async #persist(wanted: boolean | undefined, name: string, target: string, pool: string) {
    if (!wanted) return null;
    await writeRow(this.#persistTo, name, { target, pool });
    return this.#persistTo;
  }

  #view(name: string): S.WorkflowOut {
    const wf = this.#require(name);
    return workflowView(wf, this.#engine.registry.pools.get(wf.pool)!);
  }
}
