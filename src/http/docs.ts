// The API describes itself: /openapi.json generated from the route schemas (so it cannot drift
// from the routes), Swagger UI at /docs and Redoc at /redoc. Every asset is served from this
// server; nothing loads from a CDN, so the pages work offline and behind a firewall.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from "fastify-type-provider-zod";
import { ERROR_CATALOGUE } from "../service/errors.ts";
import { apiRegistry, EVENT_NAMES } from "../service/schemas/index.ts";
import type { ZodApp } from "./routes/route-kit.ts";

/**
 * Redoc's standalone bundle: the package carries a copy in dist/vendor (scripts/build-package.ts),
 * so that it need not install redoc; a clone has redoc as a development dependency.
 */
function redocBundlePath(): string {
  const packaged = fileURLToPath(new URL("../vendor/redoc/redoc.standalone.js", import.meta.url));
  if (existsSync(packaged)) return packaged;
  return createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");
}
/** The only outside address in Redoc's bundle: its vendor logo, replaced by an empty image. */
const REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
let bundle: string | null = null;
const redocBundle = () => {
  bundle ??= readFileSync(redocBundlePath(), "utf8").replaceAll(REDOC_LOGO, EMPTY_SVG);
  return bundle;
};

// Relative URLs, so the page keeps working behind a reverse proxy that adds a path prefix.
const REDOC_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Yardmaster API</title>
</head>
<body>
<redoc spec-url="openapi.json"></redoc>
<script src="redoc/redoc.standalone.js"></script>
</body>
</html>
`;

const componentsTransform = createJsonSchemaTransformObject({ schemaRegistry: apiRegistry });

function refsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") found.add(child.split("/").pop() ?? "");
      else refsIn(child, found);
    }
  }
}

/**
 * Every registered schema is emitted twice, as output (`RunSummary`) and as input
 * (`RunSummaryInput`). Keep the output ones, which document the resources, and only the input
 * ones some route actually reads.
 */
const transformObject: typeof componentsTransform = (document) => {
  const openapi = componentsTransform(document) as {
    paths?: unknown;
    components?: { schemas?: Record<string, unknown> };
  };
  const schemas = openapi.components?.schemas ?? {};
  const used = new Set<string>();
  refsIn(openapi.paths, used);
  for (let size = -1; size !== used.size; ) {
    size = used.size;
    for (const name of [...used]) refsIn(schemas[name], used);
  }
  for (const name of Object.keys(schemas)) {
    if (name.endsWith("Input") && !used.has(name)) delete schemas[name];
  }
  return openapi as ReturnType<typeof componentsTransform>;
};

function description(): string {
  const codes = Object.entries(ERROR_CATALOGUE)
    .map(([code, status]) => `\`${code}\` (${status})`)
    .join(", ");
  return [
    "Yardmaster runs workflows: graphs of async TypeScript nodes, driven over this API.",
    "",
    "Every refusal is `{error, code, ...extras}` (schema ApiError). Error codes form a closed " +
      `enumeration (schema ErrorCode): ${codes}.`,
    "",
    "Event names form a closed enumeration (schema EventName) plus the open namespace " +
      `\`plugin.<workflow>.<name>\`: ${EVENT_NAMES.map((n) => `\`${n}\``).join(", ")}.`,
  ].join("\n");
}

export async function registerDocs(app: ZodApp, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.0.3",
      info: { title: "Yardmaster", version, description: description() },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", description: "Operator token" },
          accessToken: { type: "apiKey", in: "query", name: "access_token" },
          taskToken: { type: "apiKey", in: "header", name: "X-Service-Token" },
        },
      },
    },
    transform: createJsonSchemaTransform({ schemaRegistry: apiRegistry }),
    transformObject,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: "/docs",
    uiConfig: { validatorUrl: null },
  });
  app.get("/openapi.json", { schema: { hide: true } }, () => app.swagger());
  app.get("/redoc", { schema: { hide: true } }, (_request, reply) =>
    // The page must work offline and never call out: html-headers.ts sets its policy.
    reply.type("text/html; charset=utf-8").send(REDOC_PAGE),
  );
  app.get("/redoc/redoc.standalone.js", { schema: { hide: true } }, (_request, reply) =>
    reply
      .type("application/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=86400")
      .send(redocBundle()),
  );
}
