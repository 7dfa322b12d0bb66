// Hot registration on a serving server: `register TARGET`, `reload NAME`, `remove NAME`.
// A relative file target is resolved by the server, against its configuration file's folder.
// The registry loads this module for each of them and picks the export by name.
import type { CliIo } from "../cli-io.ts";
import { clientCommand, printJson } from "../client/command-kit.ts";
import { type ParsedArgs, stringOption } from "../parse-args.ts";

const PERSISTED = "x-service-persisted";

/** `{pool?, persist}`, after the target (a body's keys go out in this order). */
function bindingFlags(parsed: ParsedArgs) {
  const pool = stringOption(parsed, "pool");
  return { ...(pool === undefined ? {} : { pool }), persist: parsed.options.persist === true };
}

function notePersisted(io: CliIo, headers: Headers): void {
  const path = headers.get(PERSISTED);
  if (path) io.out(`Configuration file updated: ${path}`);
}

export const register = clientCommand("register", {
  positionals: ["TARGET"],
  options: { pool: "string", persist: "boolean" },
  async run({ client, args, parsed, io, json }) {
    const body = { target: args[0], ...bindingFlags(parsed) };
    const res = await client.request("POST", "/api/workflows", { body });
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
    const target = stringOption(parsed, "target");
    const body = { ...(target === undefined ? {} : { target }), ...bindingFlags(parsed) };
    const res = await client.request("PUT", "/api/workflows/{name}", {
      params: { name: args[0] },
      body,
    });
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
    const res = await client.request("DELETE", "/api/workflows/{name}", {
      params: { name: args[0] },
      query: { persist },
    });
    if (json) return void printJson(io, res.body);
    const ids = res.body.task_ids;
    const stopped =
      ids.length > 0 ? `; interrupted tasks ${ids.map((i) => `#${i}`).join(", ")}` : "";
    io.out(`Removed workflow ${res.body.workflow}${stopped}. Its runs stay listed.`);
    notePersisted(io, res.headers);
    return undefined;
  },
});
