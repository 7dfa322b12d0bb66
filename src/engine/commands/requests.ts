// Answering a request, by an operator or by the engine itself. The request's own mode decides
// what is read: `option_id` for an options request, `value` for text and form. One answer per
// request; a stale request is closed. The form check is lib/'s JSON Schema compiler (ajv with
// patterns on RE2), the one the service uses when a form is opened.
import { formValidator, schemaIssues } from "../../lib/json-schema.ts";
import type { EngineCore } from "../core.ts";
import type { Json, RequestRecord } from "../domain.ts";
import { EngineError, missing } from "../errors.ts";

export interface AnswerInput {
  option_id?: string | null;
  value?: unknown;
}

export type AnswerAuthor = "user" | "engine";

function readAnswer(req: RequestRecord, input: AnswerInput): Json {
  if (req.mode === "options") {
    const ids = (req.options ?? []).map((o) => o.option_id);
    if (input.option_id == null || !ids.includes(input.option_id)) {
      throw new EngineError(
        "invalid_option",
        `Request ${req.id} expects option_id, one of: ${ids.join(", ")}.`,
        { options: ids },
      );
    }
    return input.option_id;
  }
  if (input.value === undefined) {
    // A mode mismatch (an option_id, or nothing, sent to a text or form request).
    throw new EngineError(
      "invalid_option",
      `Request ${req.id} is a ${req.mode} request: answer it with \`value\`, not option_id.`,
    );
  }
  const value = input.value as Json;
  if (req.mode === "form" && req.schema) {
    // The schema was compiled (and bounded) when the request was opened, so this cannot fail
    // on it; a row stored before that check existed is refused here rather than answered.
    const validate = formValidator(req.schema);
    if (typeof validate === "string") {
      throw new EngineError("validation", `Request ${req.id}'s form cannot be used.`, {
        errors: [{ loc: ["body", "value"], msg: validate, type: "schema_invalid" }],
      });
    }
    if (!validate(value)) {
      throw new EngineError("validation", `The answer does not fit request ${req.id}'s form.`, {
        errors: schemaIssues(validate.errors, ["body", "value"]),
      });
    }
  }
  return value;
}

/** Records the answer (`request.answered`); answers the request as now stored. */
export async function answerRequest(
  core: EngineCore,
  requestId: number,
  input: AnswerInput,
  author: AnswerAuthor,
  operator: string | null = null,
): Promise<RequestRecord> {
  return core.uow.run(async (work) => {
    const req = await work.tx.getRequest(requestId);
    if (!req) throw missing("Request", requestId);
    if (req.answered_by !== null) {
      throw new EngineError("already_answered", `Request ${requestId} was already answered.`);
    }
    if (req.stale) {
      throw new EngineError(
        "stale_request",
        `Request ${requestId} is stale: no attempt is left to take its answer.`,
      );
    }
    const answer = readAnswer(req, input);
    const answered = await work.tx.updateRequest(requestId, {
      answer,
      answered_by: author,
      answered: work.now,
      operator: work.operator,
    });
    work.emit("request.answered", req.run_id, req.task_id, {
      author,
      // readAnswer answers the chosen option id in options mode.
      option_id: req.mode === "options" ? (answer as string) : null,
      request_id: req.id,
    });
    return answered;
  }, operator);
}
