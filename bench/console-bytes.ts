// What the operator console costs the network at scale: a server holding 10,000 finished runs
// with 50 runs active (each a 5 s `nap`, replaced as it ends, so events keep flowing), and the
// console open on a page in Debian's chromium (playwright-core) for a measured window. It counts
// the bytes of every response body the page receives (the event stream included) and prints
// them per minute, split by path.
//   node --import tsx bench/console-bytes.ts [seconds=60] [page=/runs]
// The console measured is whatever ui/dist holds: build another one there to compare.
import { chromium } from "playwright-core";
import { submitBatches } from "./completions.ts";
import { withSession } from "./session.ts";

const SECONDS = Number(process.argv[2] ?? 60);
const PAGE = process.argv[3] ?? "/runs";
const STORED = 10_000;
const ACTIVE = 50;

await withSession(
  { pools: { seed: 8, active: ACTIVE }, workflows: { chain3: "seed", nap: "active" } },
  async (s) => {
    const seeded = await submitBatches(s.client, "chain3", STORED, 1000, () => "seed");
    await s.completions.waitFor([...seeded.sentAt.keys()], 300_000);
    // Fifty naps of 5 s, each replaced by the next as it ends.
    let stop = false;
    const keepOne = async () => {
      while (!stop) {
        const id = await s.client.submit("nap", "5000");
        // A server slowed by the console it serves ends its naps late: wait, never fail.
        await s.completions.waitFor([id], 600_000).catch(() => undefined);
      }
    };
    const keepers = Array.from({ length: ACTIVE }, keepOne);
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    try {
      const page = await browser.newPage();
      const bytes = new Map<string, number>();
      let total = 0;
      let measuring = false;
      // Bodies as received, read from the network layer (a stream's bytes arrive as data).
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Network.enable");
      const paths = new Map<string, string>();
      cdp.on("Network.responseReceived", (e) => {
        paths.set(e.requestId, new URL(e.response.url).pathname.replace(/\/[0-9A-Z]{26}/, "/{id}"));
      });
      cdp.on("Network.dataReceived", (e) => {
        if (!measuring) return;
        const path = paths.get(e.requestId) ?? "?";
        bytes.set(path, (bytes.get(path) ?? 0) + e.encodedDataLength);
        total += e.encodedDataLength;
      });
      await page.goto(s.server.url + PAGE);
      await page.waitForSelector(".shell");
      await new Promise((r) => setTimeout(r, 3000));
      measuring = true;
      await new Promise((r) => setTimeout(r, SECONDS * 1000));
      measuring = false;
      const perMinute = (n: number) => Math.round((n * 60) / SECONDS / 1024);
      console.log(`console on ${PAGE}, ${STORED} stored runs, ${ACTIVE} active, ${SECONDS} s:`);
      console.log(`  total ${perMinute(total).toLocaleString("en-US")} KiB per minute`);
      for (const [path, n] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 8)) {
        console.log(`  ${path.padEnd(28)} ${perMinute(n).toLocaleString("en-US")} KiB/min`);
      }
    } finally {
      stop = true;
      await browser.close();
      await Promise.race([Promise.all(keepers), new Promise((r) => setTimeout(r, 10_000))]);
    }
  },
);
