import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { deliverInbox, inboxStore, passText, pruneInboxes } from "../../../src/engine/conversations/inbox.js";
import { capText } from "../../../src/engine/text/cap.js";
import { createSpecialist } from "../../../src/engine/coordination/specialists.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { agentWorkdir } from "../../../src/engine/orchestrations/workdir.js";
import { startRun } from "../../../src/engine/runs/index.js";
import { completedOutput, coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";
import { tempDir } from "../../support/engine.js";
import { APPROVE_PLAN, planStep, runEnv } from "../runs/runEnv.js";

// A 50 kB agent output whose key fact is its last line: each receiver must get that fact, either
// in its prompt or in a file of its own workspace that the prompt names next to an explicit mark.

const KEY_FACT = "The file produced is output/final-report-7731.pdf";
const LONG = `${"Intermediate measurement, nothing conclusive yet. ".repeat(1000)}\n${KEY_FACT}`;
const INBOX_FILE = /\.codexpi\/inbox\/[0-9a-f-]+\.md/;

/** The prompt marks its cut and names a file that, in the workspace, holds the whole text. */
function expectWholeReaches(prompt: string, workspace: string): void {
  expect(LONG.length).toBeGreaterThan(50_000);
  expect(prompt).toContain(KEY_FACT);
  expect(prompt).toMatch(/caractères coupés ici/);
  const file = prompt.match(INBOX_FILE)?.[0];
  expect(file).toBeDefined();
  expect(fs.readFileSync(path.join(workspace, file!), "utf8")).toBe(LONG);
}

describe("long agent output reaches its receiver", () => {
  const closers: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it("a 50 kB step report reaches the master's review, its end in the prompt and the whole in the master's workspace", async () => {
    const env = await runEnv();
    closers.push(env.close);
    const run = await startRun(env.engine, OWNER_ACTOR, [planStep("NASflix")]);
    await env.finishActive(run.id, APPROVE_PLAN);
    await env.tick();
    await env.finishActive(run.id, LONG);
    await env.tick();
    const review = await env.queueRow((await env.run(run.id)).active_queue_id!);
    expect(review.conversation_id).toBe(run.master_conversation_id);
    const master = await env.db
      .selectFrom("projects")
      .select(["path", "role"])
      .where("id", "=", env.masterId)
      .executeTakeFirstOrThrow();
    const workspace = await agentWorkdir(env.engine, review.conversation_id, master);
    expect(workspace).toBe(master.path);
    expectWholeReaches(review.content, workspace!);
  });

  it("a 50 kB specialist answer reaches its caller, its end in the prompt and the whole in the caller's workspace", async () => {
    const env = await coordinationEnv();
    closers.push(env.close);
    const s = await createSpecialist(env.engine, OWNER_ACTOR, {
      name: "Studio Interface",
      description: "Conçoit et audite les interfaces mobiles PWA des projets.",
      capabilities: ["design.interface"],
    });
    await completedOutput(
      env.db,
      s.bootstrap_conversation_id!,
      s.bootstrap_queue_id!,
      'CODEXPI_SPECIALIST_READY {"summary":"Prêt","capabilities":["design.interface"]}',
    );
    await env.engine.tick();
    const call =
      'CODEXPI_SPECIALIST_CALL {"capability":"design.interface","task":"Préparer la maquette","context":"thème crème"}';
    const { conversation, item } = await startConversation(
      env.db,
      env.clock,
      env.source,
      "Refonds la page",
      OWNER,
    );
    await completedOutput(env.db, conversation.id, item.id, call);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "done", call, null),
    );
    await env.engine.tick();
    const delegation = await env.db
      .selectFrom("specialist_delegations")
      .selectAll()
      .where("source_queue_id", "=", item.id)
      .executeTakeFirstOrThrow();
    await completedOutput(env.db, delegation.specialist_conversation_id!, delegation.queue_id!, LONG);
    await env.engine.tick();
    const result = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("conversation_id", "=", conversation.id)
      .where("origin_kind", "=", "specialist_result")
      .executeTakeFirstOrThrow();
    const workspace = await agentWorkdir(env.engine, conversation.id, env.source);
    expect(workspace).toBe(env.source.path);
    expectWholeReaches(result.content, workspace!);
  });

  it("a 50 kB failure reaches the incident's self-repair, its end in the prompt and the whole in the repair's workspace", async () => {
    const env = await coordinationEnv();
    closers.push(env.close);
    const { conversation, item } = await startConversation(env.db, env.clock, env.source, "Exécute", OWNER);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "failed", null, LONG),
    );
    const incident = await env.db.selectFrom("incidents").selectAll().executeTakeFirstOrThrow();
    expect(incident.error).toBe(LONG);
    await env.engine.tick();
    const repair = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("origin_kind", "=", "repair")
      .executeTakeFirstOrThrow();
    // The self-repair's clone is made by its worker; the inbox is delivered into it then.
    const clone = tempDir("codexpi-clone-");
    closers.push(() => fs.rmSync(clone, { recursive: true, force: true }));
    expect(deliverInbox(env.config.dataDir, repair.conversation_id, clone)).toBe(1);
    expectWholeReaches(repair.content, clone);
  });

  it("a short text passes whole, with no mark and no file", () => {
    const dataDir = tempDir();
    expect(passText({ locale: "en", dataDir }, "c1", "short answer")).toBe("short answer");
    expect(fs.existsSync(path.join(dataDir, "inbox"))).toBe(false);
  });

  it("the inbox is kept out of git and is never written through a planted link", () => {
    const dataDir = tempDir();
    const workspace = tempDir();
    const elsewhere = tempDir();
    const text = passText({ locale: "en", dataDir }, "c1", LONG);
    expect(text).toMatch(/characters cut here/);
    fs.symlinkSync(elsewhere, path.join(workspace, ".codexpi"));
    expect(() => deliverInbox(dataDir, "c1", workspace)).toThrow(/not a directory/);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    fs.unlinkSync(path.join(workspace, ".codexpi"));
    expect(deliverInbox(dataDir, "c1", workspace)).toBe(1);
    expect(fs.readFileSync(path.join(workspace, ".codexpi", ".gitignore"), "utf8")).toBe("*\n");
  });

  it("housekeeping forgets the inboxes of conversations idle for a month, and keeps busy or recent ones", async () => {
    const env = await coordinationEnv();
    closers.push(env.close);
    const idle = await startConversation(env.db, env.clock, env.source, "vieux", OWNER);
    const busy = await startConversation(env.db, env.clock, env.source, "occupé", OWNER);
    await env.db.updateTable("prompt_queue").set({ status: "done" }).where("id", "=", idle.item.id).execute();
    for (const c of [idle, busy])
      passText({ locale: "fr", dataDir: env.config.dataDir }, c.conversation.id, LONG);
    env.clock.advance(31 * 24 * 3600_000);
    const recent = await startConversation(env.db, env.clock, env.source, "récent", OWNER);
    passText({ locale: "fr", dataDir: env.config.dataDir }, recent.conversation.id, LONG);

    expect(await pruneInboxes(env.engine, 30 * 24 * 3600_000)).toBe(1);
    expect(fs.existsSync(inboxStore(env.config.dataDir, idle.conversation.id))).toBe(false);
    expect(fs.existsSync(inboxStore(env.config.dataDir, busy.conversation.id))).toBe(true);
    expect(fs.existsSync(inboxStore(env.config.dataDir, recent.conversation.id))).toBe(true);
  });

  it("a capped column says it was cut", () => {
    expect(capText("abcdef", 10)).toBe("abcdef");
    expect(capText("abcdef", 3)).toBe("abc\n[… +3]");
  });
});
