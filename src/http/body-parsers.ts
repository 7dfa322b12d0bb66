// Request bodies are JSON. An empty body counts as no body (a client may send the JSON content
// type on a bodiless POST); any other media type is refused, which also keeps cross-site form
// posts out. Both parsers read through fastify's body limit, so an oversized body of any type is
// a 413 whether or not it declared its length.
import type { FastifyInstance } from "fastify";
import { ServiceError } from "../service/errors.ts";

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
  const msg = `Unsupported media type ${JSON.stringify(contentType ?? "")}; send application/json.`;
  return new ServiceError(
    "validation",
    "Send request bodies as application/json.",
    { errors: [{ loc: ["body"], msg, type: "media_type" }] },
    { status: 415 },
  );
}

export function installBodyParsers(app: FastifyInstance): void {
  // fastify's own parser guards against prototype poisoning (__proto__, constructor.prototype).
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === "") return done(null, undefined);
    parseJson(request, text, (err: Error | null, value?: unknown) => {
      if (err) done(malformed(text), undefined);
      else done(null, value);
    });
  });
  app.addContentTypeParser("*", { parseAs: "buffer" }, (request, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined);
    done(unsupported(request.headers["content-type"]), undefined);
  });
}
