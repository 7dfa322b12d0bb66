// Serves the operator console (ui/dist, built by `npm run build:ui`) at `/`. The console's own
// routes (/runs/01H…) answer index.html, so they survive a reload. Any other path a browser
// opens as a page (Accept: text/html, no file extension, outside the server's own surfaces)
// answers index.html too, so the console shows its not-found page; every other request (a
// client, curl, fetch) stays a JSON 404 like the rest of the server. The files are static and need no credential: the console
// asks for the token itself and sends it to the API. Its security headers, like every HTML
// page's, come from html-headers.ts.
import { stat } from "node:fs/promises";
import { dirname, extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyCompress from "@fastify/compress";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

export const UI_DIST = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "ui", "dist");

/** First path segments of the console's client-side routes (ui/src/app.tsx). */
export const CONSOLE_ROUTES = ["runs", "inbox", "workflows", "panels", "schedules"];

const MISSING = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Yardmaster</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; line-height: 1.5">
<h1>Yardmaster</h1>
<p>The operator console has not been built. Run <code>npm run build:ui</code> in the Yardmaster
folder, then reload this page. The API is up: see <a href="/docs">/docs</a>.</p>
</body></html>
`;

/**
 * Vite names built assets by content hash, so they can be cached for good; index.html names
 * the current ones, so a browser must check it every time (it gets a 304 while it is unchanged).
 */
function cacheControl(dist: string, file: string): string {
  const inDist = relative(dist, file);
  if (inDist === "index.html") return "no-cache";
  if (inDist.startsWith(`assets${sep}`)) return "public, max-age=31536000, immutable";
  return "public, max-age=3600";
}

/**
 * Whether a path stays inside ui/dist. `send` refuses one that climbs out with a 403 error the
 * error renderer does not know (a 500); such a path is simply not found.
 */
function staysInside(pathname: string): boolean {
  try {
    return !decodeURIComponent(pathname).split(/[\\/]/).includes("..");
  } catch {
    return false;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function sendIndex(dist: string, reply: FastifyReply): Promise<FastifyReply> {
  if (await isFile(join(dist, "index.html"))) return reply.sendFile("index.html");
  return reply.type("text/html; charset=utf-8").header("cache-control", "no-store").send(MISSING);
}

/** A console route: index.html, unless the path names a file (a missing asset stays a 404). */
function consolePage(dist: string) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split("?")[0]!;
    if (extname(path)) return reply.callNotFound();
    return sendIndex(dist, reply);
  };
}

/** First path segments the server answers itself: never the console's, whatever the Accept. */
const SERVER_SURFACES = new Set(["api", "docs", "redoc", "mcp", "plugins", "assets"]);

/** A browser opening an unknown path as a page (not a file, not a server surface). */
function browserPage(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (!request.headers.accept?.includes("text/html")) return false;
  const path = request.url.split("?")[0]!;
  if (extname(path)) return false;
  return !SERVER_SURFACES.has(path.split("/")[1] ?? "");
}

export async function registerUi(app: FastifyInstance, dist: string = UI_DIST): Promise<void> {
  // In a scope of its own: compression applies to the console's files, never to the API (whose
  // event stream must reach the client frame by frame).
  await app.register(async (scope) => {
    await scope.register(fastifyCompress, { encodings: ["br", "gzip"] });
    // The static wildcard route takes every path no other route has; before it looks on disk,
    // a browser's page request is handed the console.
    scope.addHook("onRequest", async (request, reply) => {
      if (request.routeOptions.url === "/*" && browserPage(request)) await sendIndex(dist, reply);
    });
    await scope.register(fastifyStatic, {
      root: dist,
      // Every path is looked up on disk when asked, so a console rebuilt under a running server
      // is served as it is now; a missing file falls through to the JSON 404.
      wildcard: true,
      index: false,
      cacheControl: false,
      allowedPath: staysInside,
      setHeaders: (res, file) => {
        res.setHeader("cache-control", cacheControl(dist, file));
        res.setHeader("x-content-type-options", "nosniff");
      },
    });
    const options = { schema: { hide: true }, config: { auth: "none" as const } };
    const page = consolePage(dist);
    scope.get("/", options, (_request, reply) => sendIndex(dist, reply));
    for (const first of CONSOLE_ROUTES) {
      scope.get(`/${first}`, options, page);
      scope.get(`/${first}/*`, options, page);
    }
  });
}
