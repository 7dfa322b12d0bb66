// Server-level views: health, readiness and the caller's identity.
import { z } from "zod";
import { AuthMode, doc, int, isoDate, named } from "./common.ts";

export const HealthOut = named(
  "Health",
  z.object({
    ok: z.boolean(),
    version: z.string(),
    pools: z.record(z.string(), z.object({ capacity: int(), in_flight: int() })).optional(),
    runs_running: int().optional(),
    tasks_in_progress: int().optional(),
    server_id: z.string().optional().meta({
      description:
        "This server's id, where several servers share a PostgreSQL store (absent on SQLite).",
    }),
    servers: z
      .array(
        z.object({
          id: z.string(),
          host: z.string(),
          pid: int(),
          url: z.string().nullable(),
          started: isoDate(),
          heartbeat: isoDate(),
          lease_until: isoDate(),
        }),
      )
      .optional()
      .meta({
        description:
          "The live servers sharing the store (lease not run out), oldest first; absent on SQLite.",
      }),
  }),
);
export type HealthOut = z.infer<typeof HealthOut>;

export const ReadyOut = named(
  "Ready",
  z.object({
    ok: z.literal(true),
    /** The store's schema version, which is the one this build expects. */
    schema: int(),
  }),
);
export type ReadyOut = z.infer<typeof ReadyOut>;

export const MeOut = named(
  "Me",
  z.object({
    auth: AuthMode,
    authenticated: z.boolean(),
    operator: doc(
      z.string().optional(),
      "The operator the caller's token belongs to (`operator` for the single token, else the " +
        "name of its `[operators.<name>]` table); absent when not authenticated or auth is off.",
    ),
    version: z.string(),
    started_at: isoDate(),
    features: z.array(z.string()),
  }),
);
export type MeOut = z.infer<typeof MeOut>;
