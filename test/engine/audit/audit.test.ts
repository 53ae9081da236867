import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../../src/engine/api/index.js";
import { CLI_ACTOR } from "../../../src/engine/projects/index.js";
import { recordAudit } from "../../../src/engine/audit/index.js";
import { clearRegisteredSecrets, registerSecrets } from "../../../src/redaction.js";
import { testEngine } from "../../support/engine.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { finishItem } from "../../../src/engine/conversations/outcome.js";
import { writeTransaction } from "../../../src/engine/database.js";

const DECISION =
  'CODEXPI_DECISION {"title":"Quel port ?","question":"Lequel ?","options":[{"id":"a","label":"A"},{"id":"b","label":"B"}],"allow_multiple":false,"allow_custom":false}';

const OWNER = { userId: "UOWNER", isAdmin: false };
const ADMIN = { userId: "UADMIN", isAdmin: true };
const STRANGER = { userId: "USTRANGER", isAdmin: false };
const DAY = 24 * 3600_000;

describe("the audit trail (engine)", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => {
    clearRegisteredSecrets();
    await env?.close();
  });

  const trail = async () =>
    (await env.db.selectFrom("audit_events").selectAll().orderBy("id").execute()).map((e) => ({
      actor: e.actor,
      via: e.via,
      action: e.action,
      target: e.target,
      project: e.project,
      outcome: e.outcome,
    }));

  it("S-AUDIT-01: each change through the API is recorded with its actor, origin, target and outcome", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine);
    fs.mkdirSync(path.join(env.dir, "other"));
    await api.projects.add(CLI_ACTOR, {
      name: "other",
      path: path.join(env.dir, "other"),
      ownerId: "UOWNER",
    });
    const started = await api.conversations.ask(OWNER, "demo", "bonjour");
    await expect(api.conversations.ask(STRANGER, "demo", "moi aussi")).rejects.toMatchObject({
      code: "not_found",
    });
    await api.conversations.stop(OWNER, started.conversation.id);
    await api.projects.list(OWNER); // a read: not recorded
    const rows = await trail();
    const cli = `cli:${os.userInfo().username}`;
    expect(rows).toEqual([
      {
        actor: cli,
        via: "cli",
        action: "project.add",
        target: "project:other",
        project: "other",
        outcome: "ok",
      },
      {
        actor: "UOWNER",
        via: "slack",
        action: "conversation.ask",
        target: "project:demo",
        project: "demo",
        outcome: "ok",
      },
      {
        actor: "USTRANGER",
        via: "slack",
        action: "conversation.ask",
        target: "project:demo",
        project: "demo",
        outcome: "refused",
      },
      {
        actor: "UOWNER",
        via: "slack",
        action: "conversation.stop",
        target: `conversation:${started.conversation.id}`,
        project: "demo",
        outcome: "ok",
      },
    ]);
    const refused = await env.db
      .selectFrom("audit_events")
      .select("reason")
      .where("outcome", "=", "refused")
      .execute();
    expect(refused[0]?.reason).toContain("not_found");
  });

  it("S-AUDIT-02: nothing secret is kept: detail is redacted and a forge token is never recorded", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine);
    registerSecrets(["tok-7f3a9c1e5b2d4a6f8e0c"]);
    await api.conversations.ask(OWNER, "demo", "use tok-7f3a9c1e5b2d4a6f8e0c to deploy");
    await api.projects.setForgeToken(ADMIN, "demo", "glpat-0123456789abcdefghij");
    const rows = await env.db.selectFrom("audit_events").selectAll().orderBy("id").execute();
    expect(rows.map((r) => r.action)).toEqual(["conversation.ask", "project.forge_token"]);
    const all = JSON.stringify(rows);
    expect(all).not.toContain("tok-7f3a9c1e5b2d4a6f8e0c");
    expect(all).not.toContain("glpat-0123456789abcdefghij");
    expect(rows[0]?.detail).toContain("to deploy"); // positive control: the detail is there, redacted
  });

  it("S-AUDIT-03: only admins read it, filtered and paged oldest first; the export is every row", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine);
    for (let i = 0; i < 5; i++) {
      await api.conversations.ask(i % 2 ? ADMIN : OWNER, "demo", `prompt ${i}`);
      env.clock.advance(DAY);
    }
    await expect(api.audit.page(OWNER, {}, 1)).rejects.toMatchObject({ code: "forbidden" });
    expect(() => api.audit.rows(OWNER, {})).toThrow(/admins_only/);
    const first = await api.audit.page(ADMIN, {}, 1, 2);
    expect(first).toMatchObject({ total: 5, page: 1, pages: 3 });
    expect(first.events.map((e) => e.detail)).toEqual(["prompt 0", "prompt 1"]);
    expect((await api.audit.page(ADMIN, {}, 3, 2)).events.map((e) => e.detail)).toEqual(["prompt 4"]);
    expect((await api.audit.page(ADMIN, { user: "UADMIN" }, 1)).total).toBe(2);
    expect((await api.audit.page(ADMIN, { project: "nope" }, 1)).total).toBe(0);
    expect((await api.audit.page(ADMIN, { since: "2d" }, 1)).events.map((e) => e.detail)).toEqual([
      "prompt 3",
      "prompt 4",
    ]);
    expect((await api.audit.page(ADMIN, { since: "2026-01-03" }, 1)).total).toBe(3);
    await expect(api.audit.page(ADMIN, { since: "yesterday" }, 1)).rejects.toMatchObject({
      reason: "audit_since_invalid",
    });
    const exported: string[] = [];
    for await (const e of api.audit.rows(ADMIN, { project: "demo" })) exported.push(JSON.stringify(e));
    expect(exported.map((l) => JSON.parse(l).detail)).toEqual([0, 1, 2, 3, 4].map((i) => `prompt ${i}`));
  });

  it("S-AUDIT-01: an agent's own act (the decision it asks) is recorded as agent:<conversation>, once", async () => {
    env = await testEngine();
    const { conversation, item } = await startConversation(
      env.db,
      env.clock,
      env.project,
      "choisis",
      "UOWNER",
    );
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "running", attempt: 1 })
      .where("id", "=", item.id)
      .execute();
    const finish = () =>
      writeTransaction(env.db, (trx) =>
        finishItem(
          trx,
          env.clock,
          env.engine.hook,
          { id: item.id, attempt: 1 },
          {
            status: "done",
            content: DECISION,
            error: null,
            errorCode: null,
          },
        ),
      );
    await finish();
    await finish(); // fenced: the same outcome twice records nothing twice
    const rows = await env.db.selectFrom("audit_events").selectAll().execute();
    expect(rows.map((r) => [r.actor, r.via, r.action, r.project, r.detail])).toEqual([
      [`agent:${conversation.id}`, "agent", "decision.ask", "demo", "Quel port ?"],
    ]);
  });

  it("S-AUDIT-04: the tick sweeps rows older than the retention", async () => {
    env = await testEngine({ env: { CODEXPI_AUDIT_RETENTION_DAYS: "30" } });
    const now = env.clock.now();
    const row = {
      actor: "UOWNER",
      via: "slack" as const,
      action: "x",
      target: "project:demo",
      outcome: "ok" as const,
    };
    await recordAudit(env.db, now - 31 * DAY, { ...row, detail: "old" });
    await recordAudit(env.db, now - 29 * DAY, { ...row, detail: "recent" });
    const result = await env.engine.tick();
    expect(result).toMatchObject({ audit_swept: 1 });
    const left = await env.db.selectFrom("audit_events").select("detail").execute();
    expect(left.map((r) => r.detail)).toEqual(["recent"]);
  });
});
