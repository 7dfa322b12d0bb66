// The work log: append-only entries, the inter-stage channel of a run.
import { z } from "zod";
import { doc, int, isoDate, LogAuthor, LogKind, named } from "./common.ts";

export const LogEntry = named(
  "LogEntry",
  z.object({
    id: int(),
    run_id: z.string(),
    node: z.string(),
    task_id: int().nullable().optional(),
    author: LogAuthor,
    kind: LogKind.nullable().optional(),
    text: z.string(),
    created: isoDate(),
    operator: doc(
      z.string().optional(),
      "The operator who wrote the entry (an authenticated operator's note); present only then.",
    ),
  }),
);
export type LogEntry = z.infer<typeof LogEntry>;
