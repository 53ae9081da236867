import os from "node:os";
import { afterEach } from "vitest";
import { eventually } from "../../support/slackBot.js";
import { serveProcess } from "../../support/serveProcess.js";
import { tempDir } from "../../support/engine.js";
import { testDatabase } from "../../support/testDatabase.js";

// Run by the postgres project only (vitest.config.ts): two real `serve` processes on one
// PostgreSQL and one data directory (the Codex homes), sharing the intake journal of that
// database, one fake Slack and model. A file per scenario, so that the three run at once in the
// group after the others (test/support/latencyFiles.ts): in one file they were its longest tail.

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const LEASE_SECONDS = 5;

type Serves = Awaited<ReturnType<typeof serveProcess>>;

/** Opens the serve pair of a test (closed after it), and what the tests read of it. */
export function multiServe() {
  let s: Serves | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });
  const opened = () => {
    if (!s) throw new Error("open() the serve pair first");
    return s;
  };
  const holder = async () =>
    (
      await opened()
        .db.selectFrom("leases")
        .select("owner")
        .where("name", "=", "coordinator")
        .executeTakeFirst()
    )?.owner ?? null;
  const ownedBy = (pid: number | null) => new RegExp(`^${os.hostname()}:${pid}:`);
  return {
    async open(): Promise<Serves> {
      s = await serveProcess({ database: await testDatabase(tempDir()) });
      return s;
    },
    holder,
    ownedBy,
    /** Waits until the serve of `pid` holds the coordinator lease. */
    takenBy: (pid: number | null, timeoutMs: number) =>
      eventually(async () => ownedBy(pid).test((await holder()) ?? ""), timeoutMs, "the takeover"),
    roots: () =>
      opened()
        .slack.messages("C1")
        .filter((m) => !m.thread_ts || m.thread_ts === m.ts),
    said: (text: string) =>
      opened()
        .slack.messages()
        .filter((m) => m.text.includes(text)),
  };
}
