// Registration targets for the OpenAPI fuzz test. A target makes the server import a module, so
// the fuzzer may name only files in its own temp folder: the seeded workflows, a few files that
// are not workflows, paths that wander through hostile folder names and back (`dir/<odd>/..`),
// and one harmless `data:` URL. `confineTarget` rewrites anything else it generates to a path
// inside the folder, keeping its odd characters.
import { isAbsolute, join, resolve, sep } from "node:path";
import fc from "fast-check";
import { loneSurrogates, oddUnicode, regexLike } from "./fuzz-hostile.ts";

export const DATA_URL_TARGET = "data:text/javascript,export const w = 1;:w";

export function targetArbitrary(dir: string, workflows: string[]): fc.Arbitrary<string> {
  const flows = join(dir, "flows.ts");
  const fixed = [
    ...workflows.map((name) => `${flows}:${name}`),
    `${flows}:nothing`,
    `${join(dir, "missing.ts")}:chain`,
    `${join(dir, "yardmaster.toml")}:chain`,
    "flows.ts:chain",
    "./flows.ts:chain",
    DATA_URL_TARGET,
  ];
  const detour = fc
    .tuple(fc.oneof(loneSurrogates, oddUnicode, regexLike), fc.constantFrom(...workflows))
    .map(([folder, name]) => `${dir}/${folder}/../flows.ts:${name}`);
  return fc.oneof(fc.constantFrom(...fixed), detour);
}

const pathLike = (where: string) =>
  where.startsWith(".") || isAbsolute(where) || /\.[cm]?[jt]s$/.test(where);

/**
 * Keeps a generated target inside `dir`, read the way the server reads one (split at the last
 * colon, a path resolved against the server's folder, anything else imported as a module).
 */
export function confineTarget(dir: string) {
  return (value: unknown): unknown => {
    if (typeof value !== "string" || value === DATA_URL_TARGET) return value;
    const colon = value.lastIndexOf(":");
    if (colon === -1) return value; // not `where:export`: refused before anything is read
    const where = value.slice(0, colon).trim();
    if (pathLike(where) && resolve(dir, where).startsWith(dir + sep)) return value;
    return join(dir, "fuzzed", where.replace(/\.\.|[/\\]/g, "_")) + value.slice(colon);
  };
}
