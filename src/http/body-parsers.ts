// Request bodies are JSON. An empty body counts as no body (a client may send the JSON content
// type on a bodiless POST). As FastAPI does, a body without a Content-Type is read as JSON too,
// and so is an `application/*+json` one; any other media type is a 422 validation failure (the
// contract's status for a body that does not fit), which also keeps cross-site form posts out.
// Both parsers read through fastify's body limit, so an oversized body of any type is a 413
// whether or not it declared its length. A body nested deeper than MAX_JSON_DEPTH is a 422
// before it is parsed (json-depth.ts), so no deep value ever reaches a route.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { excerpt } from "../lib/excerpt.ts";
import { ServiceError } from "../service/errors.ts";
import { MAX_JSON_DEPTH } from "../service/limits.ts";
import { nestsDeeperThan } from "./json-depth.ts";

function malformed(text: string): ServiceError {
  let msg = "Invalid JSON";
  try {
    JSON.parse(text);
  } catch (error) {
    msg = (error as Error).message;
  }
  return new ServiceError(
    "validation",
    "The request body is not valid JSON.",
    { errors: [{ loc: ["body"], msg, type: "json_invalid" }] },
    { status: 400 },
  );
}

function unsupported(contentType: string | undefined): ServiceError {
  const type = excerpt(JSON.stringify(contentType ?? ""));
  const msg = `Unsupported media type ${type}; send application/json.`;
  return new ServiceError("validation", "Send request bodies as application/json.", {
    errors: [{ loc: ["body"], msg, type: "media_type" }],
  });
}

/** No declared type, or a structured-syntax JSON type such as application/merge-patch+json. */
function readsAsJson(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return type === "" || /^application\/[^/]*\+json$/.test(type);
}

function tooDeep(): ServiceError {
  const msg = `JSON nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects.`;
  return new ServiceError("validation", "The request body nests too deeply.", {
    errors: [{ loc: ["body"], msg, type: "json_too_deep" }],
  });
}

type Done = (err: Error | null, body?: unknown) => void;

export function installBodyParsers(app: FastifyInstance): void {
  // fastify's own parser guards against prototype poisoning (__proto__, constructor.prototype).
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeAllContentTypeParsers();
  const json = (request: FastifyRequest, text: string, done: Done) => {
    if (text.trim() === "") return done(null, undefined);
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(tooDeep(), undefined);
    parseJson(request, text, (err: Error | null, value?: unknown) => {
      if (err) done(malformed(text), undefined);
      else done(null, value);
    });
  };
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) =>
    json(request, body as string, done),
  );
  app.addContentTypeParser("*", { parseAs: "buffer" }, (request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0) return done(null, undefined);
    const contentType = request.headers["content-type"];
    if (readsAsJson(contentType)) return json(request, bytes.toString("utf8"), done);
    done(unsupported(contentType), undefined);
  });
}
