// The client commands of `yardmaster`: thin clients of the HTTP API. Each entry loads its
// module only when it runs; modules holding several commands export one function per command.
import type { CommandEntry, CommandRun } from "./registry.ts";

/** The options every client command takes, shown by `yardmaster COMMAND --help`. */
export const CLIENT_HELP = [
  "Options of every client command:",
  "  --url URL      server address (default $YARDMASTER_URL, else http://127.0.0.1:8420)",
  "  --token T      operator token (default $YARDMASTER_TOKEN)",
  "  --json         print the API's JSON instead of a table",
  "Exit codes: 0 done; 1 the API refused (4xx) or a waited run did not complete;",
  "2 usage error; 3 server unreachable, silent or failing (5xx); 130 interrupted wait.",
].join("\n");

/** A command module; its other exports (table renderers) are ignored here. */
type Loader = () => Promise<Record<string, unknown>>;

function entry(name: string, usage: string, summary: string, load: Loader, pick = "run") {
  const loadRun = async () => ({ run: (await load())[pick] as CommandRun });
  return { name, usage, summary, load: loadRun, details: CLIENT_HELP } satisfies CommandEntry;
}

const runActions: Loader = () => import("./run-actions.ts");
const taskActions: Loader = () => import("./task-actions.ts");
const registration: Loader = () => import("./registration.ts");

export const CLIENT_COMMANDS: readonly CommandEntry[] = [
  entry(
    "runs",
    "runs [--status S] [--workflow W] [--search Q] [--since T] [--until T]\n" +
      "       [--sort position|created|updated] [--limit N [--cursor C]]\n" +
      "       runs delete|cancel|retry [RUN...] [--status S] [--workflow W] [--before ISO] [--limit N] [--all]",
    "list runs (dispatch order, or newest created/updated first); delete, cancel or retry the failed attempts of many runs",
    () => import("./runs.ts"),
  ),
  entry("show", "show RUN", "show a run: fields, output, tasks", () => import("./show.ts")),
  entry(
    "submit",
    "submit WORKFLOW (--title T [--description D] [--input JSON] [--idempotency-key K] [--wait] | --from-file runs.jsonl)",
    "queue a run, print its id; --wait follows it to its end; a key makes it safe to repeat; --from-file queues one run per line",
    () => import("./submit.ts"),
  ),
  entry("cancel", "cancel RUN", "cancel a run and its outstanding tasks", runActions, "cancel"),
  entry("pause", "pause RUN", "pause a queued or running run", runActions, "pause"),
  entry("resume", "resume RUN", "resume a paused run", runActions, "resume"),
  entry("delete", "delete RUN", "delete a run and everything under it", runActions, "remove"),
  entry(
    "move-run",
    "move-run RUN --index N | --up | --down",
    "move a run in the dispatch list (--index from 0)",
    () => import("./move-run.ts"),
  ),
  entry("rerun", "rerun RUN NODE", "enqueue a fresh attempt of a node", runActions, "rerun"),
  entry("retry", "retry TASK", "enqueue the next attempt of a stopped task", taskActions, "retry"),
  entry(
    "move",
    "move TASK NODE",
    "cancel a task and enqueue its payload at NODE",
    taskActions,
    "move",
  ),
  entry(
    "set-status",
    "set-status TASK ready|cancelled|dead_letter",
    "write a task's status",
    taskActions,
    "setStatus",
  ),
  entry(
    "tail",
    "tail [--run ID] [--names GLOBS] [--after ID]",
    "follow the event stream until Ctrl-C",
    () => import("./tail.ts"),
  ),
  entry(
    "inbox",
    "inbox [--run ID] [--answered]",
    "list requests waiting on a person (--answered: those answered, and by whom)",
    () => import("./inbox.ts"),
  ),
  entry(
    "answer",
    "answer REQUEST (--option ID | --value JSON | --text STRING)",
    "answer a request; its task resumes",
    () => import("./answer.ts"),
  ),
  entry(
    "log",
    "log RUN [--write TEXT]",
    "print a run's work log, or write a note",
    () => import("./log.ts"),
  ),
  entry("workflows", "workflows", "list registered workflows", () => import("./workflows.ts")),
  entry(
    "schedules",
    "schedules",
    "list schedules with their next and last fire",
    () => import("./schedules.ts"),
  ),
  entry(
    "register",
    "register TARGET [--pool P] [--persist]",
    "load and register a workflow on the server",
    registration,
    "register",
  ),
  entry(
    "reload",
    "reload NAME [--target T] [--pool P] [--persist]",
    "reload a workflow from its target",
    registration,
    "reload",
  ),
  entry("remove", "remove NAME [--persist]", "unregister a workflow", registration, "remove"),
];
