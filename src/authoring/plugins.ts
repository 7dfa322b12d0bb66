import { assertPlugins } from "../plugins/compile.ts";
import type { FinalGraph } from "./types.ts";
import type { Workflow } from "./workflow.ts";

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
