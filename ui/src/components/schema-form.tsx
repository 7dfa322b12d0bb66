// A form generated from a JSON Schema (react-jsonschema-form with the ajv8 validator), used for
// form requests and plugin actions. Refusals from the server (`errors[].loc`) are shown next to
// the field they name, under the form's own validation messages.
import Form from "@rjsf/core";
import type { ErrorSchema, RJSFSchema, RJSFValidationError } from "@rjsf/utils";
import validator from "@rjsf/validator-ajv8";
import { useMemo, useState } from "react";
import { ApiError } from "../api/client.ts";
import { humanMessage } from "./human-errors.ts";

/** `["body", "value", "address", "city"]` → the path inside the form: `["address", "city"]`. */
export function formPath(loc: (string | number)[]): (string | number)[] {
  let rest = loc;
  if (rest[0] === "body") rest = rest.slice(1);
  if (rest[0] === "value" || rest[0] === "input") rest = rest.slice(1);
  return rest;
}

type Tree = { __errors?: string[]; [key: string]: unknown };

export function serverErrors(error: unknown): ErrorSchema | undefined {
  if (!(error instanceof ApiError) || !error.issues.length) return undefined;
  const root: Tree = {};
  for (const issue of error.issues) {
    let node = root;
    const path = formPath(issue.loc);
    for (const part of path) {
      node[String(part)] ??= {};
      node = node[String(part)] as Tree;
    }
    const field = path.length ? String(path.at(-1)) : "";
    node.__errors = [...(node.__errors ?? []), humanMessage(issue.msg, field)];
  }
  return root as ErrorSchema;
}

const ignoreErrors = () => {};

/** The form's own checks (ajv's messages) in plain words, as the server's are. */
const humanErrors = (errors: RJSFValidationError[]) =>
  errors.map((e) => ({ ...e, message: humanMessage(e.message ?? "", e.title ?? "") }));

export function SchemaForm(props: {
  schema: Record<string, unknown>;
  submitLabel: string;
  busy?: boolean;
  error?: unknown;
  /** Disables the submit button alone (a field outside the form is not filled in yet). */
  submitDisabled?: boolean;
  onSubmit: (value: unknown) => void;
  /** Each change of the data (what the operator has typed so far). */
  onChange?: (value: unknown) => void;
}) {
  const [data, setData] = useState<unknown>(undefined);
  const extraErrors = useMemo(() => serverErrors(props.error), [props.error]);
  return (
    <Form
      className="schema-form"
      schema={props.schema as RJSFSchema}
      validator={validator}
      formData={data}
      onChange={(e) => {
        setData(e.formData);
        props.onChange?.(e.formData);
      }}
      onSubmit={(e) => props.onSubmit(e.formData ?? null)}
      // Without onError rjsf console.errors every validation miss; the misses are already
      // shown beside their fields, which is where the operator looks.
      onError={ignoreErrors}
      transformErrors={humanErrors}
      extraErrors={extraErrors}
      showErrorList={false}
      noHtml5Validate
      disabled={props.busy}
    >
      <button
        type="submit"
        className="btn btn-primary"
        disabled={props.busy || props.submitDisabled}
      >
        {props.submitLabel}
      </button>
    </Form>
  );
}
