// Answering a request. The request's own mode decides what is read: `option_id` for an options
// request, `value` for text and form. One answer per request; a stale request is closed.
import type { EngineCore } from "../../engine/core.ts";
import type { Json, RequestRecord } from "../../engine/domain.ts";
import { formValidator, schemaIssues } from "../../lib/json-schema.ts";
import { ServiceError } from "../errors.ts";

function readAnswer(
  req: RequestRecord,
  body: { option_id?: string | null; value?: unknown },
): Json {
  if (req.mode === "options") {
    const ids = (req.options ?? []).map((o) => o.option_id);
    if (body.option_id == null || !ids.includes(body.option_id)) {
      throw new ServiceError(
        "invalid_option",
        `Request ${req.id} expects option_id, one of: ${ids.join(", ")}.`,
        { options: ids },
      );
    }
    return body.option_id;
  }
  if (body.value === undefined) {
    // A mode mismatch (an option_id, or nothing, sent to a text or form request).
    throw new ServiceError(
      "invalid_option",
      `Request ${req.id} is a ${req.mode} request: answer it with \`value\`, not option_id.`,
    );
  }
  const value = body.value as Json;
  if (req.mode === "form" && req.schema) {
    // The schema was compiled (and bounded) when the request was opened, so this cannot fail
    // on it; a row stored before that check existed is refused here rather than answered.
    const validate = formValidator(req.schema);
    if (typeof validate === "string") {
      throw new ServiceError("validation", `Request ${req.id}'s form cannot be used.`, {
        errors: [{ loc: ["body", "value"], msg: validate, type: "schema_invalid" }],
      });
    }
    if (!validate(value)) {
      throw new ServiceError("validation", `The answer does not fit request ${req.id}'s form.`, {
        errors: schemaIssues(validate.errors, ["body", "value"]),
      });
    }
  }
  return value;
}

export async function answerRequest(
  core: EngineCore,
  requestId: number,
  body: { option_id?: string | null; value?: unknown },
  author: "user" | "engine",
): Promise<RequestRecord> {
  return core.uow.run(async (work) => {
    const req = await work.tx.getRequest(requestId);
    if (!req) throw new ServiceError("not_found", `Request ${requestId} does not exist.`);
    if (req.answered_by !== null) {
      throw new ServiceError("already_answered", `Request ${requestId} was already answered.`);
    }
    if (req.stale) {
      throw new ServiceError(
        "stale_request",
        `Request ${requestId} is stale: no attempt is left to take its answer.`,
      );
    }
    const answer = readAnswer(req, body);
    const answered = await work.tx.updateRequest(requestId, {
      answer,
      answered_by: author,
      answered: work.now,
    });
    work.emit("request.answered", req.run_id, req.task_id, {
      author,
      option_id: req.mode === "options" ? answer : null,
      request_id: req.id,
    });
    return answered;
  });
}
