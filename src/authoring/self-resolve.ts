// `import { workflow } from "yardmaster"` in a workflow file that no project enclosing it
// depends on (a file in a scratch folder, a config folder beside the server): Node would fail
// with "Cannot find module". The server is yardmaster, so such an import resolves to the running
// package's own entry. Ordinary resolution always comes first: a project that depends on
// yardmaster gets its own copy, as it asked.
import Module from "node:module";
import { fileURLToPath } from "node:url";

const PACKAGE = "yardmaster";
const entryUrl = new URL("../index.ts", import.meta.url).href;

/** The ESM hook, as a module of its own (Node loads resolve hooks off the main thread). */
const HOOK = `
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    if (specifier !== ${JSON.stringify(PACKAGE)} || err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
    return next(${JSON.stringify(entryUrl)}, context);
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
  const entryPath = fileURLToPath(entryUrl);
  cjs._resolveFilename = function (this: unknown, request, ...rest) {
    try {
      return original.call(this, request, ...rest);
    } catch (err) {
      const notFound = (err as { code?: string })?.code === "MODULE_NOT_FOUND";
      if (request !== PACKAGE || !notFound) throw err;
      return entryPath;
    }
  };
}
