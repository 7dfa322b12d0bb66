// The loader's last stage: a workflow's plugin declarations compiled by the plugin compiler
// (plugins/compile.ts), every problem reported at once.
import type { FinalGraph, Workflow } from "../authoring/index.ts";
import { assertPlugins } from "../plugins/compile.ts";

/**
 * Registration-time check of plugin declarations (stage "plugins"): every `wf.action(...)` and
 * `wf.panel(...)` against typescript.md section 4 and the plugin manifest of http-api.md. With
 * `graph`, panel nodes must exist; with `file`, assets must exist beside it (the registrar
 * passes both; the loader, which runs first, checks what needs neither). Throws an Error
 * listing every problem, each naming its declaration.
 */
export function validatePlugins(
  wf: Workflow,
  where: { graph?: FinalGraph | null; file?: string | null } = {},
): void {
  assertPlugins(wf, where);
}
