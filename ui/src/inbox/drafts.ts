// What the operator has typed into each request's answer and not sent, and which answers this
// tab is sending: the inbox keeps a card that another tab or the CLI answered meanwhile when it
// held an unsent answer (inbox-page.tsx), and never for an answer of its own.
const drafts = new Map<number, string>();
const sending = new Set<number>();

export function setDraft(requestId: number, text: string): void {
  if (text.trim()) drafts.set(requestId, text);
  else drafts.delete(requestId);
}

export function draftOf(requestId: number): string | undefined {
  return drafts.get(requestId);
}

export function dropDraft(requestId: number): void {
  drafts.delete(requestId);
}

export function markSending(requestId: number, on: boolean): void {
  if (on) sending.add(requestId);
  else sending.delete(requestId);
}

export function isSending(requestId: number): boolean {
  return sending.has(requestId);
}

/** A form's data as the text kept for it: its JSON, when any field holds something. */
export function formDraft(value: unknown): string {
  const filled = (v: unknown): boolean =>
    v !== undefined &&
    v !== null &&
    v !== "" &&
    (typeof v !== "object" || Object.values(v as object).some(filled));
  return filled(value) ? JSON.stringify(value, null, 2) : "";
}
