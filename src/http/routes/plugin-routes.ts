// Plugins over HTTP: the manifest, action calls, panel data routes and assets. Panel data and
// assets are served by one parameterised route each, since workflows (and so their panels) come
// and go while the server runs and fastify cannot add routes once it listens.
import { z } from "zod";
import type { PluginService } from "../../plugins/plugin-host.ts";
import { ServiceError } from "../../service/errors.ts";
import {
  ActionCall,
  ActionPath,
  intString,
  PluginManifestEntry,
} from "../../service/schemas/index.ts";
import { OPERATOR, refusals, type ZodApp } from "./route-kit.ts";

const tags = ["plugins"];

const PanelPath = z.object({ wf: z.string().min(1), name: z.string().min(1) });
const PanelQuery = z.object({
  run_id: z.string().min(1).optional(),
  task_id: intString().optional(),
  node: z.string().min(1).optional(),
});
const AssetParams = z.object({ wf: z.string().min(1), "*": z.string() });
const AssetQuery = z.object({ v: z.string().optional() });

/** Any JSON value, sent as the plugin produced it (a response schema would reshape it). */
const AnyJson = z.unknown();

const json = (value: unknown) => JSON.stringify(value ?? null);

const noSuchAsset = (wf: string, path: string) =>
  new ServiceError("not_found", `Workflow ${wf} declares no asset ${JSON.stringify(path)}.`);

/** The JSON a client asked for, written as is: plugins answer free-form values. */
function sendJson(reply: { type(t: string): { send(p: string): unknown } }, value: unknown) {
  return reply.type("application/json; charset=utf-8").send(json(value));
}

export function registerPluginRoutes(app: ZodApp, plugins: PluginService | undefined): void {
  const host = (): PluginService => {
    if (plugins) return plugins;
    throw new ServiceError("not_found", "This server was built without plugin support.");
  };
  app.get(
    "/api/plugins",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "listPlugins",
        summary: "The plugin manifest: builtins first, then workflows in registration order",
        response: { 200: z.array(PluginManifestEntry), ...refusals(401) },
      },
    },
    () => (plugins ? plugins.manifest() : []),
  );
  app.post(
    "/api/plugins/:wf/actions/:name",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "callAction",
        summary: "Run a plugin action; answers whatever its handler returned",
        params: ActionPath,
        // Every field is optional, so no body at all (fastify passes null) is the empty call.
        body: ActionCall.nullish(),
        response: { 200: AnyJson, ...refusals(401, 404, 422, 500) },
      },
    },
    async (request, reply) => {
      const { wf, name } = request.params;
      return sendJson(reply, await host().callAction(wf, name, request.body ?? {}));
    },
  );
  app.get(
    "/api/plugins/:wf/panels/:name/data",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "panelData",
        summary: "A panel's data (the URL a PanelOut names as its source)",
        params: PanelPath,
        querystring: PanelQuery,
        response: { 200: AnyJson, ...refusals(401, 404, 422, 500) },
      },
    },
    async (request, reply) => {
      const { wf, name } = request.params;
      return sendJson(reply, await host().panelData(wf, name, request.query));
    },
  );
  app.get(
    "/plugins/:wf/assets/*",
    // A browser loads modules with <script type=module>, which cannot carry a bearer token, so
    // assets are open whether or not auth is on; only files a workflow declares are served.
    {
      config: { auth: "none" },
      schema: { hide: true, params: AssetParams, querystring: AssetQuery },
    },
    async (request, reply) => {
      const { wf, "*": path } = request.params;
      const found = await host().asset(wf, path);
      if (!found) throw noSuchAsset(wf, path);
      // The versioned URL names these exact bytes: cache it for good. Any other URL revalidates.
      const fresh = request.query.v === found.version;
      return reply
        .type("text/javascript; charset=utf-8")
        .header("cache-control", fresh ? "public, max-age=31536000, immutable" : "no-cache")
        .header("etag", `"${found.version}"`)
        .send(found.bytes);
    },
  );
}
