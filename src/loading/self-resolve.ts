// `import { workflow } from "yardmaster"` (or `import { z } from "zod"`, the models the docs
// show) in a workflow file that no project enclosing it depends on, such as a scratch folder or
// a configuration folder beside the server: Node would fail with "Cannot find module". The
// server is yardmaster and carries zod, so such an import resolves as if the server's own code
// had written it. Ordinary resolution always comes first: a project that depends on these
// packages gets its own copies, as it asked.
//
// The server runs either from its TypeScript sources (a clone) or compiled (the package). The
// package's exports name the compiled entry, dist/index.js, which a clone builds only when it is
// packed: from the sources, that entry is swapped for src/index.ts, so the clone's own files
// (examples, test fixtures) always get the code that is running, never a stale or missing build.
import Module, { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** Packages a workflow file may import by name without installing them. */
const SHARED = ["yardmaster", "zod"];
/** Resolution starts here on the fallback: inside this package, which has both. */
const serverUrl = import.meta.url;
const fromSource = serverUrl.endsWith(".ts");
/** The entry in the form the server runs in: what a fallback "yardmaster" gets. */
const ownEntry = new URL(fromSource ? "../index.ts" : "../index.js", serverUrl).href;
/** This package's compiled entry, as its exports name it. */
const compiledEntry = new URL(fromSource ? "../../dist/index.js" : "../index.js", serverUrl).href;

const isShared = (specifier: string) =>
  SHARED.some((name) => specifier === name || specifier.startsWith(`${name}/`));

/** The ESM hook, as a module of its own (Node runs resolve hooks off the main thread). */
const HOOK = `
const SHARED = ${JSON.stringify(SHARED)};
const isShared = ${isShared.toString()};
const ownEntry = ${JSON.stringify(ownEntry)};
const compiledEntry = ${JSON.stringify(compiledEntry)};
export async function resolve(specifier, context, next) {
  let resolved;
  try {
    resolved = await next(specifier, context);
  } catch (err) {
    if (!isShared(specifier) || err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
    if (specifier === "yardmaster") return { url: ownEntry, shortCircuit: true };
    return next(specifier, { ...context, parentURL: ${JSON.stringify(serverUrl)} });
  }
  return resolved.url === compiledEntry ? { url: ownEntry, shortCircuit: true } : resolved;
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
  const ownFile = fileURLToPath(ownEntry);
  const compiledFile = fileURLToPath(compiledEntry);
  cjs._resolveFilename = function (this: unknown, request, ...rest) {
    let file: string;
    try {
      file = original.call(this, request, ...rest);
    } catch (err) {
      const notFound = (err as { code?: string })?.code === "MODULE_NOT_FOUND";
      if (!isShared(request) || !notFound) throw err;
      file = request === "yardmaster" ? ownFile : fromServer.resolve(request);
    }
    return file === compiledFile ? ownFile : file;
  };
}
