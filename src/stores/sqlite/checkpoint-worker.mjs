// The store's WAL checkpoints, on a thread of their own (see checkpointer.ts). Plain JavaScript:
// the TypeScript loader is registered on the main thread only. A PASSIVE checkpoint never
// waits for the writer; it copies what is committed into the database file and syncs it.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

const { path, synchronous, busyTimeoutMs, everyMs } = workerData;
const db = new Database(path, { timeout: busyTimeoutMs });
db.pragma(`synchronous = ${synchronous}`);

function checkpoint() {
  try {
    const [row] = db.pragma("wal_checkpoint(PASSIVE)");
    parentPort.postMessage({ log: row.log, checkpointed: row.checkpointed });
  } catch (err) {
    // SQLITE_BUSY and the like: the next round tries again; the main thread hears of it.
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
}

const timer = setInterval(checkpoint, everyMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage({ ready: true });
