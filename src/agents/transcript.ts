// What an ACP `session/update` shows in the task's transcript (http-api.md "Transcript"):
// message text, thoughts, tool calls and their results, and plans or notices as `notice`.
// Updates that only feed measurements (usage, model) or the editor's UI (commands, modes)
// show nothing.
import type {
  ContentBlock,
  SessionUpdate,
  ToolCallContent,
} from "@agentclientprotocol/sdk/unstable";
import type { TranscriptChunk } from "../engine/index.ts";

export type Chunk = TranscriptChunk;

function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

export function contentText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}]`;
    case "resource_link":
      return `[link ${block.title ?? block.name} ${block.uri}]`;
    case "resource": {
      const res = block.resource as { uri: string; text?: string };
      return typeof res.text === "string" ? res.text : `[resource ${res.uri}]`;
    }
    default:
      return "";
  }
}

function toolContentText(items: ToolCallContent[] | null | undefined): string {
  return (items ?? [])
    .map((item) => {
      if (item.type === "content") return contentText(item.content);
      if (item.type === "diff") return `[diff ${item.path}]`;
      return `[terminal ${item.terminalId}]`;
    })
    .filter(Boolean)
    .join("\n");
}

/** Turns updates into chunks; remembers tool titles so that a result can name its call. */
export class Transcript {
  readonly #tools = new Map<string, string>();

  /** Distinct tool calls seen so far. */
  get toolCalls(): number {
    return this.#tools.size;
  }

  chunksOf(update: SessionUpdate): Chunk[] {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
        return [{ kind: "text", text: contentText(update.content) }];
      case "agent_thought_chunk":
        return [{ kind: "thought", text: contentText(update.content) }];
      case "tool_call": {
        this.#tools.set(update.toolCallId, update.title);
        const kind = update.kind ? ` [${update.kind}]` : "";
        const input = update.rawInput === undefined ? "" : ` ${compactJson(update.rawInput)}`;
        const call: Chunk = { kind: "tool_call", text: `${update.title}${kind}${input}` };
        // Some agents report a call only once it is over.
        return [call, ...this.#result({ ...update, sessionUpdate: "tool_call_update" })];
      }
      case "tool_call_update":
        return this.#result(update);
      case "plan":
        return [{ kind: "notice", text: planText(update.entries) }];
      case "notice": {
        const detail = update.description ? `: ${update.description}` : "";
        return [{ kind: "notice", text: `${update.severity}: ${update.title}${detail}` }];
      }
      default:
        return [];
    }
  }

  #result(update: Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>): Chunk[] {
    if (update.status !== "completed" && update.status !== "failed") return [];
    if (update.title) this.#tools.set(update.toolCallId, update.title);
    else if (!this.#tools.has(update.toolCallId)) this.#tools.set(update.toolCallId, "tool");
    const title = this.#tools.get(update.toolCallId);
    const body =
      toolContentText(update.content) ||
      (update.rawOutput === undefined ? "" : compactJson(update.rawOutput));
    return [{ kind: "tool_result", text: `${title} ${update.status}${body ? `: ${body}` : ""}` }];
  }
}

function planText(entries: Array<{ content: string; status: string }>): string {
  const steps = entries.map((e, i) => `${i + 1}. [${e.status}] ${e.content}`);
  return ["Plan:", ...steps].join("\n");
}
