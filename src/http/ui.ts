// Serves the operator console (ui/dist, built by `npm run build:ui`) at `/`. The console's own
// routes (/runs/01H…) answer index.html, so they survive a reload; any other path stays a
// JSON 404 like the rest of the server. The files are static and need no credential: the console
// asks for the token itself and sends it to the API.
import { readFile, stat } from "node:fs/promises";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

export const UI_DIST = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "ui", "dist");

/** Prefixes owned by other routes: an unknown path under them stays a JSON 404. */
const RESERVED = ["/api", "/docs", "/redoc", "/openapi.json", "/mcp", "/plugins"];

/** First path segments of the console's client-side routes (ui/src/app.tsx). */
export const CONSOLE_ROUTES = ["runs", "inbox", "workflows", "panels"];

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "application/javascript; charset=utf-8",
  ".mjs": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

/**
 * Defence in depth behind the markdown sanitizer: no inline scripts or event handlers run.
 * 'unsafe-eval' stays because the JSON-Schema form validator (ajv) compiles schemas to code.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join("; ");

const MISSING = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Yardmaster</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; line-height: 1.5">
<h1>Yardmaster</h1>
<p>The operator console has not been built. Run <code>npm run build:ui</code> in the Yardmaster
folder, then reload this page. The API is up: see <a href="/docs">/docs</a>.</p>
</body></html>
`;

function notFound(reply: FastifyReply): FastifyReply {
  reply.callNotFound();
  return reply;
}

const reserved = (path: string) => RESERVED.some((p) => path === p || path.startsWith(`${p}/`));

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The file under ui/dist a URL path names, or null for anything outside it. */
function fileFor(dist: string, path: string): string | null {
  const file = resolve(dist, `.${path}`);
  const rel = relative(dist, file);
  return rel && !rel.startsWith("..") && !rel.includes(`..${sep}`) ? file : null;
}

async function sendIndex(dist: string, reply: FastifyReply): Promise<FastifyReply> {
  const index = join(dist, "index.html");
  if (!(await isFile(index)))
    return reply.type(TYPES[".html"]).header("cache-control", "no-store").send(MISSING);
  return reply
    .type(TYPES[".html"])
    .header("cache-control", "no-cache")
    .header("content-security-policy", CSP)
    .header("x-content-type-options", "nosniff")
    .send(await readFile(index));
}

async function serve(
  dist: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  let path: string;
  try {
    path = decodeURIComponent(request.url.split("?")[0]);
  } catch {
    return notFound(reply);
  }
  if (reserved(path)) return notFound(reply);
  const file = path === "/" ? null : fileFor(dist, path);
  if (file && (await isFile(file))) {
    // Vite names built assets by content hash: they can be cached for good.
    const immutable = path.startsWith("/assets/");
    return reply
      .type(TYPES[extname(file)] ?? "application/octet-stream")
      .header(
        "cache-control",
        immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
      )
      .header("x-content-type-options", "nosniff")
      .send(await readFile(file));
  }
  // A missing file is a 404, and so is a path the console has no page for.
  const first = path.split("/")[1] ?? "";
  if (path !== "/" && (extname(path) || !CONSOLE_ROUTES.includes(first))) return notFound(reply);
  return sendIndex(dist, reply);
}

export function registerUi(app: FastifyInstance, dist: string = UI_DIST): void {
  const options = { schema: { hide: true }, config: { auth: "none" as const } };
  app.get("/", options, (request, reply) => serve(dist, request, reply));
  app.get("/*", options, (request, reply) => serve(dist, request, reply));
}
