// Support-ticket triage: the example of docs (typescript.md section 1) as a runnable workflow.
// intake -> classify fans out one review per part -> publish joins them; empty tickets are rejected.
import { type Arrival, NonRetryable, workflow } from "yardmaster";

interface Ticket {
  title: string;
  description?: string;
}
interface Item {
  text: string;
  parts: string[];
}
interface Review {
  part: string;
  ok: boolean;
}

export const triage = workflow("triage");

/** Accepts a ticket, or rejects it when it has no title. */
triage.node(
  { start: true, retries: 2, timeout: 30 },
  async function intake({ classify, reject }, ticket: Ticket, ctx) {
    if (!ticket.title) return reject;
    await ctx.log(`intake: ${ticket.title}`);
    return classify({ text: ticket.title, parts: ticket.title.split(/\s+/) });
  },
);

/** Splits the ticket into parts, one review branch each. */
triage.node(async function classify({ review }, item: Item) {
  return item.parts.map((part) => review(part));
});

/** Checks one part of the ticket and hands the verdict to the join. */
triage.node(async function review({ publish }, part: string) {
  return publish({ part, ok: part.length > 0 });
});

triage.node({ join: true }, async function publish({}, arrivals: Arrival<Review, string>[]) {
  return arrivals.map((a) => a.value);
});

triage.node(async function reject() {
  throw new NonRetryable("empty ticket");
});
