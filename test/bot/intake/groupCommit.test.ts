import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { IntakeStore } from "../../../src/bot/intake/store.js";
import type { IntakeJournal } from "../../../src/bot/store/intakeJournal.js";
import { SharedIntakeStore } from "../../../src/bot/store/sharedIntake.js";
import { dialectOf } from "../../../src/engine/database.js";
import { tempDir, testEngine } from "../../support/engine.js";
import { parsePrometheusText } from "../../support/promText.js";
import { slackBot } from "../../support/slackBot.js";

// Issue 32, item 9: the intake journals a burst of requests in a few durable commits (group
// commit), and acks none of them before the commit holding it has ended.

type Bot = Awaited<ReturnType<typeof slackBot>>;

/** The intake's counters from the bot's metrics: durable commits and requests recorded. */
async function journalCounters(b: Bot): Promise<{ commits: number; requests: number }> {
  const families = parsePrometheusText(await (await fetch(`${b.metricsBase}/metrics`)).text());
  const value = (name: string) => families.get(name)?.samples[0]?.value ?? 0;
  return {
    commits: value("codexpi_intake_commits_total"),
    requests: value("codexpi_intake_requests_total"),
  };
}

/**
 * The response URL ids of the requests in the intake journal now. On SQLite the journal is the
 * bot's own file, locked by it: read from a copy of the file and its WAL (what a restart would
 * find); on PostgreSQL the shared table.
 */
async function journaledIds(b: Bot): Promise<Set<string>> {
  let bodies: string[];
  if (dialectOf(b.db) === "postgres") {
    const rows = await b.db.selectFrom("intake_requests").select("body").execute();
    bodies = rows.map((r) => r.body);
  } else {
    const copy = tempDir("codexpi-intake-copy-");
    const file = path.join(b.config.dataDir, "intake.db");
    fs.copyFileSync(file, path.join(copy, "intake.db"));
    fs.copyFileSync(`${file}-wal`, path.join(copy, "intake.db-wal"));
    const db = new SQLite(path.join(copy, "intake.db"));
    try {
      bodies = (db.prepare("SELECT body FROM intake").all() as Array<{ body: string }>).map((r) => r.body);
    } finally {
      db.close();
      fs.rmSync(copy, { recursive: true, force: true });
    }
  }
  const ids = new Set<string>();
  for (const body of bodies) {
    const url = (JSON.parse(body) as { response_url?: string }).response_url ?? "";
    const m = /\/response\/([^/?]+)$/.exec(url);
    if (m) ids.add(m[1] as string);
  }
  return ids;
}

describe("group commit of the intake journal", () => {
  let b: Bot | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it("S-ACK-01: a burst of 30 concurrent commands is journaled in fewer than 30 durable commits, and every acked command is in the journal", async () => {
    b = await slackBot();
    const bot = b;
    // Positive control of the count: commands sent one after the other take one commit each.
    const before = await journalCounters(bot);
    for (let i = 0; i < 3; i++) expect((await bot.command("status")).status).toBe(200);
    const sequential = await journalCounters(bot);
    expect(sequential.requests - before.requests).toBe(3);
    expect(sequential.commits - before.commits).toBe(3);

    // Positive control of the journal check: a command not sent yet is not found there.
    expect((await journaledIds(bot)).has("r4")).toBe(false);

    const N = 30;
    const missingAtAck: string[] = [];
    const acks = await Promise.all(
      Array.from({ length: N }, async () => {
        const res = await bot.command("status");
        // As soon as this ack is in: its command is in the journal (its copy, on SQLite).
        if (!(await journaledIds(bot)).has(res.responseId)) missingAtAck.push(res.responseId);
        return res;
      }),
    );
    expect(acks.map((r) => r.status)).toEqual(Array(N).fill(200));
    expect(missingAtAck).toEqual([]);
    const burst = await journalCounters(bot);
    expect(burst.requests - sequential.requests).toBe(N);
    expect(burst.commits - sequential.commits).toBeLessThan(N);
    expect(burst.commits - sequential.commits).toBeGreaterThan(0);
    // Every command of the burst is answered, once.
    for (const r of acks) await bot.response(r.responseId, 30_000);
    for (const r of acks) expect(bot.slack.responses.filter((x) => x.id === r.responseId)).toHaveLength(1);
  });

  it("S-ACK-02: one commit of a batch records each new key once; a key repeated in the batch or recorded before gets no id (both journals)", async () => {
    const env = await testEngine();
    const dir = tempDir();
    const local = new IntakeStore(path.join(dir, "intake.db"));
    const shared = new SharedIntakeStore(env.db, env.clock, "owner-ack-02", 10_000);
    try {
      const journals: Array<[string, IntakeJournal]> = [
        ["local", local],
        ["shared", shared],
      ];
      for (const [name, journal] of journals) {
        const now = env.clock.now();
        const request = (key: string) => ({ key, kind: "event", body: { key }, receivedAt: now });
        const [earlier] = await journal.recordAll([request("Ev-earlier")]);
        expect(earlier, name).not.toBeNull();
        const ids = await journal.recordAll([
          request("Ev-a"),
          request("Ev-b"),
          request("Ev-a"),
          request("Ev-earlier"),
        ]);
        expect(
          ids.map((id) => id !== null),
          name,
        ).toEqual([true, true, false, false]);
        expect(new Set(ids).size, name).toBe(3); // two distinct ids and null
      }
      expect(local.counts().pending).toBe(3);
    } finally {
      local.close();
      await env.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
