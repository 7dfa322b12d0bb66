// One peer's workers, in a process of their own (as Yardmaster's server is), so that the driver
// reads their CPU and peak RSS from /proc:
//   node --import tsx bench/peers/worker.ts '<WorkerSpec as JSON>'
// It sets the peer up on the store it is given (a fresh PostgreSQL database, or a fresh Redis),
// prints `{"ready":true}` when its workers run, and, for graphile-worker only, one line
// `{"end":"<run>"}` per run whose last job succeeded (the worker's own `job:success` event: the
// driver has no other way to hear of it). It stops when its stdin closes or on SIGTERM.
//
// Every peer runs the same three workflows, named as bench/workflows.ts names ours:
//   chain3  a -> b -> c, each step a job (or DBOS step) durable before the next starts
//   fan     spread -> 20 branches -> gather, the gather starting once all branches are done
//   nap     one step sleeping `sleepMs`
// and every step but nap does nothing but hand over to the next: the figures are the engines'.
import { exitWhenTold } from "../child-exit.ts";
import { startCpuProfile } from "../cpu-profiler.ts";
import { nextSteps, type Step, type WorkerSpec, type Workflow } from "./protocol.ts";

const spec = JSON.parse(process.argv[2] ?? "{}") as WorkerSpec;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** The join of a fan-out: one row per run counting the branches still to finish. */
const FAN_TABLE = `CREATE TABLE IF NOT EXISTS peer_fan (run text PRIMARY KEY, left_n int NOT NULL)`;

type Stop = () => Promise<void>;

async function graphile(): Promise<Stop> {
  const { run } = await import("graphile-worker");
  const pg = (await import("pg")).default;
  const setup = new pg.Client({ connectionString: spec.url });
  await setup.connect();
  await setup.query(FAN_TABLE);
  await setup.end();
  const runner = await run({
    connectionString: spec.url,
    concurrency: spec.capacity,
    noHandleSignals: true,
    pollInterval: 2000,
    logger: quietGraphileLogger(await import("graphile-worker")),
    taskList: {
      step: async (payload, helpers) => {
        const { run: id, step } = payload as { run: string; step: Step };
        if (step === "nap") await sleep(spec.sleepMs);
        if (step === "spread") {
          // The join row and the 20 branch jobs in one statement, so one transaction.
          await helpers.withPgClient((c) =>
            c.query(
              `WITH f AS (INSERT INTO peer_fan VALUES ($1, $2))
               SELECT graphile_worker.add_job('step', json_build_object('run', $1::text, 'step', 'branch'))
                 FROM generate_series(1, $2)`,
              [id, spec.width],
            ),
          );
          return;
        }
        if (step === "branch") {
          // The last branch to finish enqueues the gather, in the statement that counts it.
          await helpers.withPgClient((c) =>
            c.query(
              `WITH d AS (UPDATE peer_fan SET left_n = left_n - 1 WHERE run = $1 RETURNING left_n)
               SELECT graphile_worker.add_job('step', json_build_object('run', $1::text, 'step', 'gather'))
                 FROM d WHERE left_n = 0`,
              [id],
            ),
          );
          return;
        }
        for (const next of nextSteps(step)) await helpers.addJob("step", { run: id, step: next });
      },
    },
  });
  runner.events.on("job:success", ({ job }) => {
    const { run: id, step } = job.payload as { run: string; step: Step };
    if (nextSteps(step).length === 0 && step !== "branch") say({ end: id });
  });
  return () => runner.stop();
}

function quietGraphileLogger(mod: typeof import("graphile-worker")) {
  return new mod.Logger(() => (level: string, message: string) => {
    if (level === "error") process.stderr.write(`graphile-worker: ${message}\n`);
  });
}

type JobData = { run: string; step: Step };
type PgBossT = InstanceType<typeof import("pg-boss")["PgBoss"]>;
type Tx = Parameters<PgBossT["send"]>[2] extends infer O
  ? NonNullable<O> extends { db?: infer D }
    ? NonNullable<D>
    : never
  : never;

/** One pg-boss job of a run: its hand-over written through the job's own transaction. */
async function pgbossStep(boss: PgBossT, tx: Tx, { run: id, step }: JobData): Promise<void> {
  if (step === "nap") await sleep(spec.sleepMs);
  if (step === "spread") {
    await tx.executeSql("INSERT INTO peer_fan VALUES ($1, $2)", [id, spec.width]);
    const branches = Array.from({ length: spec.width }, () => ({
      data: { run: id, step: "branch" },
    }));
    await boss.insert("steps", branches, { db: tx });
    return;
  }
  if (step === "branch") {
    const { rows } = await tx.executeSql(
      "UPDATE peer_fan SET left_n = left_n - 1 WHERE run = $1 RETURNING left_n",
      [id],
    );
    if (rows[0]?.left_n === 0) await boss.send("steps", { run: id, step: "gather" }, { db: tx });
    return;
  }
  const next = nextSteps(step);
  for (const s of next) await boss.send("steps", { run: id, step: s }, { db: tx });
  // The run's end reaches the driver when this transaction commits (NOTIFY is delivered at
  // commit): the run is over once its last job's completion is durable.
  if (next.length === 0) await tx.executeSql("SELECT pg_notify('peer_end', $1)", [id]);
}

async function pgboss(): Promise<Stop> {
  const { PgBoss } = await import("pg-boss");
  // LISTEN/NOTIFY (a queue with `notify`) wakes an idle worker as soon as a job is sent.
  const boss = new PgBoss({
    connectionString: spec.url,
    useListenNotify: true,
    max: spec.capacity + 4,
    queueCacheIntervalSeconds: 1,
    monitorIntervalSeconds: 1,
  } as never);
  boss.on("error", (err) => process.stderr.write(`pg-boss: ${String(err)}\n`));
  boss.on("warning", (w) => process.stderr.write(`pg-boss warning: ${JSON.stringify(w)}\n`));
  await boss.start();
  await boss.getDb().executeSql(FAN_TABLE);
  await boss.createQueue("steps", { notify: true });
  // One queue for every step, so `localConcurrency` is the whole worker's capacity; each job
  // runs in the transaction that completes it (`transactional`), and what it enqueues or
  // notifies commits with that completion.
  // One queue for every step. PEERS_PGBOSS_MODE=batch (default): the worker fetches up to `capacity` jobs at a time and runs them
  // together in the transaction that completes them (`transactional`), so what a job enqueues or
  // notifies commits with its completion; a full batch fetches again at once
  // (`burstWhenBatchFull`), a short one waits for a NOTIFY or pg-boss's shortest poll (0.5 s).
  // `single`: `capacity` workers of one job each, which idle up to 0.5 s between jobs whenever
  // no NOTIFY comes (a backlog with no new sends drains at 2 jobs/s a worker: 6x slower in W1).
  const mode = process.env.PEERS_PGBOSS_MODE ?? "batch";
  const options =
    mode === "batch"
      ? { batchSize: spec.capacity, localConcurrency: 1, burstWhenBatchFull: true }
      : { batchSize: 1, localConcurrency: spec.capacity, burstWhenReadyExceeds: 1 };
  await boss.work(
    "steps",
    {
      transactional: true,
      pollingIntervalSeconds: 0.5,
      notifyPollingIntervalSeconds: 0.5,
      ...options,
    },
    async (jobs, tx) => {
      await Promise.all(jobs.map((job) => pgbossStep(boss, tx, job.data as JobData)));
    },
  );
  return () => boss.stop({ graceful: false, timeout: 5000 } as never);
}

async function bullmq(): Promise<Stop> {
  const { FlowProducer, Queue, Worker } = await import("bullmq");
  const connection = { host: "127.0.0.1", port: spec.redisPort! };
  const queue = new Queue("steps", { connection });
  const flows = new FlowProducer({ connection });
  const worker = new Worker(
    "steps",
    async (job) => {
      const { run: id, step } = job.data as { run: string; step: Step };
      if (step === "nap") await sleep(spec.sleepMs);
      if (step === "spread") {
        // BullMQ's own join: a parent job that runs once its children have completed.
        await flows.add({
          name: "gather",
          queueName: "steps",
          data: { run: id, step: "gather" },
          opts: { jobId: `${id}-gather` },
          children: Array.from({ length: spec.width }, (_, i) => ({
            name: "branch",
            queueName: "steps",
            data: { run: id, step: "branch" },
            opts: { jobId: `${id}-b${i}` },
          })),
        });
        return;
      }
      if (step === "branch") return;
      for (const s of nextSteps(step)) {
        await queue.add(s, { run: id, step: s }, { jobId: `${id}-${s}` });
      }
    },
    { connection: { ...connection, maxRetriesPerRequest: null }, concurrency: spec.capacity },
  );
  worker.on("error", (err) => process.stderr.write(`bullmq: ${String(err)}\n`));
  await worker.waitUntilReady();
  return async () => {
    await worker.close(true);
    await flows.close();
    await queue.close();
  };
}

async function dbos(): Promise<Stop> {
  const { DBOS } = await import("@dbos-inc/dbos-sdk");
  DBOS.setConfig({ name: "ymbench", systemDatabaseUrl: spec.url, logLevel: "error" });
  const noop = (name: string) =>
    DBOS.registerStep(async (run: string) => run, { name, retriesAllowed: false } as never);
  const [a, b, c, spread, branch, gather] = ["a", "b", "c", "spread", "branch", "gather"].map(noop);
  const napStep = DBOS.registerStep(
    async (run: string) => {
      await sleep(spec.sleepMs);
      return run;
    },
    { name: "nap" },
  );
  const workflows: Record<Workflow, (run: string) => Promise<string>> = {
    chain3: async (run) => c(await b(await a(run))),
    // The 20 branch steps start together inside the workflow (DBOS checkpoints each one); the
    // queue's concurrency bounds workflows, not steps.
    fan: async (run) => {
      await spread(run);
      await Promise.all(Array.from({ length: spec.width }, () => branch(run)));
      return gather(run);
    },
    nap: (run) => napStep(run),
  };
  for (const [name, body] of Object.entries(workflows)) DBOS.registerWorkflow(body, { name });
  await DBOS.launch();
  await DBOS.registerQueue("bench", {
    workerConcurrency: spec.capacity,
    minPollingIntervalMs: spec.dbosPollMs,
    onConflict: "always_update",
  });
  return () => DBOS.shutdown();
}

const PEERS = { graphile, pgboss, bullmq, dbos } as const;

async function main() {
  const stop = await PEERS[spec.peer]();
  const endProfile = spec.profileFile ? await startCpuProfile(spec.profileFile) : null;
  exitWhenTold(async () => {
    await endProfile?.();
    await stop().catch((err) => process.stderr.write(`stop: ${String(err)}\n`));
  });
  say({ ready: true, pid: process.pid });
}

main().catch((err) => {
  process.stderr.write(`peer worker failed: ${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
