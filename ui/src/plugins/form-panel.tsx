// A `form` panel: the form of one of the workflow's actions (its JSON Schema), calling
// POST /api/plugins/{wf}/actions/{name} with the input and the panel's scope.
import { useState } from "react";
import { enc, post } from "../api/client.ts";
import type { ActionOut } from "../api/types.ts";
import { confirmAction } from "../components/dialog.tsx";
import { ErrorNote } from "../components/error-note.tsx";
import { JsonView } from "../components/json-view.tsx";
import { Markdown } from "../components/markdown.tsx";
import { SchemaForm } from "../components/schema-form.tsx";
import { useAction } from "../components/use-action.ts";
import type { PlacedPanel } from "./manifest.ts";
import type { PanelScope } from "./panel-host.tsx";

export function ActionForm({
  workflow,
  action,
  scope,
}: {
  workflow: string;
  action: ActionOut;
  scope: PanelScope;
}) {
  const { busy, error, run } = useAction();
  const [result, setResult] = useState<{ value: unknown } | null>(null);
  const call = async (input: unknown) => {
    if (action.confirm) {
      const ok = await confirmAction({
        title: action.title,
        body: `${action.title} now?`,
        confirm: action.title,
        danger: false,
      });
      if (!ok) return;
    }
    const out = await run(
      async () => ({
        value: await post<unknown>(`/api/plugins/${enc(workflow)}/actions/${enc(action.name)}`, {
          input,
          scope,
        }),
      }),
      `${action.title}: done`,
    );
    if (out) setResult(out);
  };
  const fields = Object.keys((action.schema.properties as object | undefined) ?? {}).length;
  return (
    <div className="action-form" data-action={action.name}>
      {fields > 0 ? (
        <SchemaForm
          schema={action.schema}
          submitLabel={action.title}
          busy={busy}
          error={error}
          onSubmit={(v) => void call(v)}
        />
      ) : (
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          onClick={() => void call(null)}
        >
          {action.title}
        </button>
      )}
      <ErrorNote error={error} />
      {result && (
        <div className="action-result" data-action-result>
          {typeof result.value === "string" ? (
            <Markdown text={result.value} />
          ) : (
            <JsonView value={result.value} open />
          )}
        </div>
      )}
    </div>
  );
}

export function FormPanel({ placed, scope }: { placed: PlacedPanel; scope: PanelScope }) {
  const action = placed.entry.actions.find((a) => a.name === placed.panel.source);
  if (!action) {
    return (
      <div className="placeholder">
        Action <code>{placed.panel.source}</code> is not in the manifest.
      </div>
    );
  }
  return <ActionForm workflow={placed.workflow} action={action} scope={scope} />;
}
