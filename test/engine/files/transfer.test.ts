import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import {
  dropShippedStaged,
  handBackDirOf,
  pruneFileChunks,
  receiveHandBack,
  receiveStaged,
  shipHandBack,
  shipStaged,
  stagingDirOf,
  type Attachment,
} from "../../../src/engine/files/index.js";
import { afterTurnFiles } from "../../../src/engine/worker/turnFiles.js";
import type { CodexLaunch } from "../../../src/engine/worker/launch.js";
import { testEngine } from "../../support/engine.js";

// Files between machines (S-FILE-13), on both dialects: what the bot staged goes through the
// database to a worker host's own data directory, and what a host's turn hands back comes the
// other way; large files in several rows, byte for byte; nothing is left once delivered.

describe("files through the database", () => {
  let t: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const rows = async () => (await t!.db.selectFrom("file_chunks").select(["owner", "seq"]).execute()).length;

  it("S-FILE-13: a staged file larger than one row crosses byte for byte into another data dir, and leaves the sender", async () => {
    t = await testEngine();
    const botDir = t.config.dataDir;
    const hostDir = path.join(t.dir, "host-data");
    const staged = path.join(stagingDirOf(botDir, "C1:1800000000.000100"), "big.bin");
    fs.mkdirSync(path.dirname(staged), { recursive: true });
    const bytes = randomBytes(7 * 1024 * 1024 + 5); // three rows of 3 MiB
    fs.writeFileSync(staged, bytes);
    const attachment: Attachment = { name: "big.bin", kind: "file", size: bytes.length, staged };

    await shipStaged(t.db, t.clock, botDir, [attachment]);
    expect(await rows()).toBe(3);
    expect(fs.existsSync(staged)).toBe(false); // the sender keeps no copy

    const [here] = await receiveStaged(t.db, hostDir, [attachment]);
    expect(here?.staged.startsWith(path.join(hostDir, "files", "in"))).toBe(true);
    expect(fs.readFileSync(here?.staged as string).equals(bytes)).toBe(true);
    // A worker on the bot's own machine would fetch it back the same way.
    const [back] = await receiveStaged(t.db, botDir, [attachment]);
    expect(back?.staged).toBe(staged);
    expect(fs.readFileSync(staged).equals(bytes)).toBe(true);

    await dropShippedStaged(t.db, [attachment]);
    expect(await rows()).toBe(0);
  });

  it("S-FILE-13: a host's hand-back reaches the bot's data dir and is forgotten there; a name that is a path is never written", async () => {
    t = await testEngine();
    const botDir = t.config.dataDir;
    const hostDir = path.join(t.dir, "host-data");
    const out = handBackDirOf(hostDir, "q-1");
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, "report.txt"), "from the host\n");
    fs.writeFileSync(path.join(out, "empty.txt"), "");

    await shipHandBack(t.db, t.clock, hostDir, "q-1", ["report.txt", "empty.txt"]);
    expect(fs.existsSync(out)).toBe(false);
    // A row naming a path (the worker never writes one): left out, never written outside the folder.
    await t.db
      .insertInto("file_chunks")
      .values({ owner: "out:q-1", name: "../escape.txt", seq: 0, data: "eA==", created_at: 0 })
      .execute();

    expect(await receiveHandBack(t.db, botDir, "q-1")).toBe(2);
    const dir = handBackDirOf(botDir, "q-1");
    expect(fs.readFileSync(path.join(dir, "report.txt"), "utf8")).toBe("from the host\n");
    expect(fs.readFileSync(path.join(dir, "empty.txt"), "utf8")).toBe("");
    expect(fs.readdirSync(dir).sort()).toEqual(["empty.txt", "report.txt"]);
    expect(fs.existsSync(path.join(path.dirname(dir), "escape.txt"))).toBe(false);
    expect(await rows()).toBe(0);
    // Nothing more to take: a retried event finds the files already here.
    expect(await receiveHandBack(t.db, botDir, "q-1")).toBe(0);
  });

  it("S-FILE-13: on a worker host, a hand-back the database will not take is named as not sent, never dropped silently", async () => {
    t = await testEngine();
    const engine = t;
    const turn = async (queueId: string) => {
      const workdir = path.join(engine.dir, `work-${queueId}`);
      fs.mkdirSync(path.join(workdir, ".codexpi", "outbox"), { recursive: true });
      fs.writeFileSync(path.join(workdir, ".codexpi", "outbox", "result.txt"), "done\n");
      const launch = { purpose: "conversation", workdir } as unknown as CodexLaunch;
      const item = { id: queueId, attachments: null };
      return afterTurnFiles(engine, pino({ level: "silent" }), item, launch, true);
    };
    // Positive control: the database takes it, and the outcome names it to upload.
    expect(await turn("q-ok")).toEqual({ files: [{ name: "result.txt", size: 5 }], refused: [] });
    expect(await rows()).toBe(1);
    // The database refuses (its table is gone): the file is named as not sent.
    await sql`drop table file_chunks`.execute(t.db);
    expect(await turn("q-lost")).toEqual({
      files: [],
      refused: [{ name: "result.txt", size: 5, reason: "transfer_failed" }],
    });
  });

  it("housekeeping forgets rows nobody took after their time, not newer ones", async () => {
    t = await testEngine();
    const out = handBackDirOf(t.config.dataDir, "q-old");
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, "old.txt"), "old");
    await shipHandBack(t.db, t.clock, t.config.dataDir, "q-old", ["old.txt"]);
    t.clock.advance(3_600_000);
    const newer = handBackDirOf(t.config.dataDir, "q-new");
    fs.mkdirSync(newer, { recursive: true });
    fs.writeFileSync(path.join(newer, "new.txt"), "new");
    await shipHandBack(t.db, t.clock, t.config.dataDir, "q-new", ["new.txt"]);
    expect(await pruneFileChunks(t.db, t.clock.now() - 1_000)).toBe(1);
    expect(await t.db.selectFrom("file_chunks").select("owner").execute()).toEqual([{ owner: "out:q-new" }]);
  });
});
