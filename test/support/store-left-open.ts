// Opens a SQLite store, writes to it and exits without closing it: the process must end on
// its own (no helper thread of the store may keep it alive). Prints `wrote` first.
import { openSqliteStore } from "../../src/stores/sqlite/index.ts";
import { runInput } from "../stores/contract/fixtures.ts";

const store = await openSqliteStore(process.argv[2]);
await store.transact((tx) => tx.insertRun(runInput()));
process.stdout.write("wrote\n");
