// Where a workflow target may come from. Loading a target runs its code inside the server, so a
// target must be a script file, or an installed package, inside one of the folders the
// configuration names as workflow roots. Links are resolved before the check (a link inside a
// root pointing elsewhere does not count as inside), and the file imported is the resolved one,
// so what was checked is what runs.
import { existsSync } from "node:fs";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type ParsedTarget, SCRIPT_EXTENSIONS } from "./target.ts";

/** How a target string is read: relative to `baseDir`, and allowed only inside `roots`. */
export interface TargetPlace {
  baseDir: string;
  /** Absolute folders (or single files) a target may resolve into. */
  roots: readonly string[];
}

/** What to hand the importer once a target has passed the roots check. */
export interface PlacedTarget {
  specifier: string;
  /** Resolution of a package starts here, as if a file in this folder imported it. */
  parentURL: string;
  /** The file the target names (links resolved); null for a package until it has loaded. */
  file: string | null;
}

/** Why a target does not load: outside the roots (`target`), or simply not there (`import`). */
export class TargetPlaceError extends Error {
  readonly stage: "target" | "import";
  constructor(stage: "target" | "import", message: string) {
    super(message);
    this.name = "TargetPlaceError";
    this.stage = stage;
  }
}

/** A string place means "this folder, and nothing outside it". */
export function targetPlace(place: string | TargetPlace): TargetPlace {
  return typeof place === "string" ? { baseDir: place, roots: [place] } : place;
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The roots as they are on disk; a root that does not exist holds nothing. */
async function realRoots(roots: readonly string[]): Promise<string[]> {
  const found = await Promise.all(roots.map((root) => realpath(root).catch(() => null)));
  return found.filter((root): root is string => root !== null);
}

function outside(what: string, roots: readonly string[]): TargetPlaceError {
  const listed = roots.length > 0 ? roots.join(", ") : "none";
  return new TargetPlaceError(
    "target",
    `${what} is not inside a workflow root (workflow_roots: ${listed})`,
  );
}

export async function placeTarget(parsed: ParsedTarget, place: TargetPlace): Promise<PlacedTarget> {
  const roots = await realRoots(place.roots);
  if (parsed.kind === "file") return placeFile(parsed.file, place, roots);
  return placePackage(parsed.specifier, place, roots);
}

async function placeFile(file: string, place: TargetPlace, roots: string[]): Promise<PlacedTarget> {
  if (!SCRIPT_EXTENSIONS.includes(path.extname(file))) {
    throw new TargetPlaceError(
      "target",
      `${file} is not a script file (${SCRIPT_EXTENSIONS.join(", ")})`,
    );
  }
  let real: string;
  try {
    real = await realpath(file);
  } catch {
    // Missing: say so only inside the roots, so the answer tells nothing about other folders.
    const lexicalRoots = [...place.roots, ...roots];
    if (lexicalRoots.some((root) => isInside(root, file))) {
      throw new TargetPlaceError("import", `file not found: ${file}`);
    }
    throw outside(file, place.roots);
  }
  if (!roots.some((root) => isInside(root, real))) throw outside(file, place.roots);
  return { specifier: pathToFileURL(real).href, parentURL: folderUrl(place.baseDir), file: real };
}

/** `name`, `@scope/name`, either with a subpath: what an installed package is imported by. */
const PACKAGE_SPECIFIER = /^((?:@[^/@\s]+\/)?[^/@.\s#][^/\s]*)(?:\/.*)?$/;

/** A package target loads from the `node_modules` folder of a root, and nowhere above it. */
async function placePackage(
  specifier: string,
  place: TargetPlace,
  roots: string[],
): Promise<PlacedTarget> {
  const name = PACKAGE_SPECIFIER.exec(specifier)?.[1];
  // A subpath walking up (`pkg/../../x`) or encoded would leave the package folder checked here.
  const segments = specifier.split("/");
  if (
    name === undefined ||
    segments.some((s) => s === "." || s === ".." || s === "") ||
    /[%\\]/.test(specifier)
  ) {
    throw new TargetPlaceError("target", `"${specifier}" is not a package name`);
  }
  for (const root of roots) {
    const folder = path.join(root, "node_modules", name);
    if (!existsSync(folder)) continue;
    const real = await realpath(folder);
    if (!roots.some((r) => isInside(r, real))) throw outside(`package ${name}`, place.roots);
    return { specifier, parentURL: folderUrl(root), file: null };
  }
  throw new TargetPlaceError(
    "import",
    `Cannot find package '${name}' in the node_modules folder of a workflow root ` +
      `(workflow_roots: ${place.roots.join(", ") || "none"})`,
  );
}

const folderUrl = (dir: string) => pathToFileURL(path.resolve(dir) + path.sep).href;
