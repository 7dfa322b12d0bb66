// What the runner says to the agent besides the workflow's own prompt: how to deliver the
// result (the agent's chat is never read as the result), and, after a turn that ended without
// a valid submission, a repair prompt that says what went wrong and what to submit.
import type { ContentBlock } from "@agentclientprotocol/sdk/unstable";
import type { RepairReason } from "../engine/index.ts";

export interface DeliveryInfo {
  taskId: number;
  outputSchema: Record<string, unknown> | null;
}

function schemaText(schema: Record<string, unknown> | null): string {
  if (!schema) return "Any JSON value is accepted.";
  return `The result must fit this JSON Schema:\n${JSON.stringify(schema, null, 2)}`;
}

function howToSubmit(info: DeliveryInfo): string {
  return [
    "Submit the result with the `submit_result` tool of the `yardmaster` MCP server, or POST it",
    `as JSON to $YARDMASTER_URL/api/agent/tasks/${info.taskId}/submit with the header`,
    "`X-Service-Token: $YARDMASTER_TOKEN`. Only a submitted result counts; your messages are",
    "not read as the result. Submitting again replaces the earlier result.",
  ].join(" ");
}

export function firstPrompt(prompt: string, info: DeliveryInfo): ContentBlock[] {
  return [
    { type: "text", text: prompt },
    { type: "text", text: `${howToSubmit(info)}\n${schemaText(info.outputSchema)}` },
  ];
}

export function repairPrompt(
  reason: RepairReason,
  rejections: unknown[],
  info: DeliveryInfo,
): ContentBlock[] {
  const why =
    reason === "rejected"
      ? `Your turn ended and your submission was refused: it does not fit the output model.\nErrors: ${JSON.stringify(rejections.at(-1) ?? [])}`
      : "Your turn ended, but you have not submitted a result yet.";
  const text = [why, howToSubmit(info), schemaText(info.outputSchema)].join("\n");
  return [{ type: "text", text }];
}
