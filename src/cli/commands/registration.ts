// Hot registration on a serving server: `register TARGET`, `reload NAME`, `remove NAME`.
// A relative file target is resolved by the server, against its configuration file's folder.
// The registry loads this module for each of them and picks the export by name.
import type { CliIo } from "../cli-io.ts";
import type { RemovedWorkflowOut, WorkflowOut } from "../client/api-types.ts";
import { clientCommand, printJson, seg } from "../client/command-kit.ts";
import { type ParsedArgs, stringOption } from "../parse-args.ts";

const PERSISTED = "x-service-persisted";

function bindingBody(parsed: ParsedArgs, target: string | undefined) {
  const pool = stringOption(parsed, "pool");
  return {
    ...(target === undefined ? {} : { target }),
    ...(pool === undefined ? {} : { pool }),
    persist: parsed.options.persist === true,
  };
}

function notePersisted(io: CliIo, headers: Headers): void {
  const path = headers.get(PERSISTED);
  if (path) io.out(`Configuration file updated: ${path}`);
}

export const register = clientCommand("register", {
  positionals: ["TARGET"],
  options: { pool: "string", persist: "boolean" },
  async run({ client, args, parsed, io, json }) {
    const body = bindingBody(parsed, args[0]);
    const res = await client.call<WorkflowOut>("POST", "/api/workflows", { body });
    if (json) return void printJson(io, res.body);
    io.out(`Registered workflow ${res.body.name} on pool ${res.body.pool}.`);
    notePersisted(io, res.headers);
    return undefined;
  },
});

export const reload = clientCommand("reload", {
  positionals: ["NAME"],
  options: { target: "string", pool: "string", persist: "boolean" },
  async run({ client, args, parsed, io, json }) {
    const body = bindingBody(parsed, stringOption(parsed, "target"));
    const res = await client.call<WorkflowOut>("PUT", `/api/workflows/${seg(args[0])}`, { body });
    if (json) return void printJson(io, res.body);
    const from = res.body.target ? ` from ${res.body.target}` : "";
    io.out(`Reloaded workflow ${res.body.name}${from} on pool ${res.body.pool}.`);
    notePersisted(io, res.headers);
    return undefined;
  },
});

export const remove = clientCommand("remove", {
  positionals: ["NAME"],
  options: { persist: "boolean" },
  async run({ client, args, parsed, io, json }) {
    const persist = parsed.options.persist === true ? true : undefined;
    const path = `/api/workflows/${seg(args[0])}`;
    const res = await client.call<RemovedWorkflowOut>("DELETE", path, { query: { persist } });
    if (json) return void printJson(io, res.body);
    const ids = res.body.task_ids;
    const stopped =
      ids.length > 0 ? `; interrupted tasks ${ids.map((i) => `#${i}`).join(", ")}` : "";
    io.out(`Removed workflow ${res.body.workflow}${stopped}. Its runs stay listed.`);
    notePersisted(io, res.headers);
    return undefined;
  },
});
