// `import { workflow } from "yardmaster"` (or `import { z } from "zod"`, the models the docs
// show) in a workflow file that no project enclosing it depends on, such as a scratch folder or
// a configuration folder beside the server: Node would fail with "Cannot find module". The
// server is yardmaster and carries zod, so such an import resolves as if the server's own code
// had written it. Ordinary resolution always comes first: a project that depends on these
// packages gets its own copies, as it asked.
import Module, { createRequire } from "node:module";

/** Packages a workflow file may import by name without installing them. */
const SHARED = ["yardmaster", "zod"];
/** Resolution starts here on the fallback: inside this package, which has both. */
const serverUrl = import.meta.url;

const isShared = (specifier: string) =>
  SHARED.some((name) => specifier === name || specifier.startsWith(`${name}/`));

/** The ESM hook, as a module of its own (Node runs resolve hooks off the main thread). */
const HOOK = `
const SHARED = ${JSON.stringify(SHARED)};
const isShared = ${isShared.toString()};
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    if (!isShared(specifier) || err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
    return next(specifier, { ...context, parentURL: ${JSON.stringify(serverUrl)} });
  }
}`;

type ResolveFilename = (request: string, ...rest: unknown[]) => string;

let installed = false;

/** Installs the fallback for ES modules and for CommonJS (tsx compiles some files to it). */
export function installSelfResolution(): void {
  if (installed) return;
  installed = true;
  Module.register(`data:text/javascript,${encodeURIComponent(HOOK)}`);
  const cjs = Module as unknown as { _resolveFilename: ResolveFilename };
  const original = cjs._resolveFilename;
  const fromServer = createRequire(serverUrl);
  cjs._resolveFilename = function (this: unknown, request, ...rest) {
    try {
      return original.call(this, request, ...rest);
    } catch (err) {
      const notFound = (err as { code?: string })?.code === "MODULE_NOT_FOUND";
      if (!isShared(request) || !notFound) throw err;
      return fromServer.resolve(request);
    }
  };
}
