import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ask } from "../../../src/engine/conversations/conversationService.js";
import type { Actor } from "../../../src/engine/projects/index.js";
import { updateProject } from "../../../src/engine/projects/index.js";
import { t } from "../../../src/i18n/index.js";
import { testEngine } from "../../support/engine.js";
import { jailAvailable } from "../../support/jail.js";
import { git, isolateGit } from "../orchestrations/repo.js";

// The ask use case checks a request's options before it writes anything (DESIGN "Per-request
// options"): each refusal leaves no conversation, no queue item, no message, no event and starts
// no worker; the same request with a good value is accepted (the positive control).

const OWNER: Actor = { userId: "UOWNER", isAdmin: false };
const ADMIN: Actor = { userId: "UADMIN", isAdmin: true };

let jail = false;
beforeAll(async () => {
  jail = await jailAvailable();
});

describe("per-request options in the ask use case", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => {
    await env?.close();
  });
  const counts = async () => ({
    conversations: (await env.db.selectFrom("conversations").select("id").execute()).length,
    items: (await env.db.selectFrom("prompt_queue").select("id").execute()).length,
    messages: (await env.db.selectFrom("messages").select("id").execute()).length,
    events: (await env.db.selectFrom("outbox").select("id").execute()).length,
    spawned: env.spawner.calls.length,
  });
  /** Asks and expects a refusal with `reason`; nothing may have changed. */
  async function refused(
    project: string,
    prompt: string,
    reason: string,
    params: Record<string, unknown> = {},
  ) {
    const before = await counts();
    const err = await ask(env.engine, OWNER, project, prompt).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "EngineError", code: "invalid", reason, params });
    expect(await counts()).toEqual(before);
    return err as { reason: string; params: Record<string, string> };
  }

  it("S-OPT-02: a model outside the project's list is refused with the allowed ones and changes nothing; a listed one is accepted", async () => {
    env = await testEngine();
    // No list: only the configured model, so any `model=` is refused.
    const none = await refused("demo", "model=gpt-5.6-terra do X", "request_model_none", {
      model: "gpt-5.6-terra",
      name: "demo",
    });
    expect(t("en", `reason.${none.reason}` as "reason.request_model_none", none.params)).toContain(
      "--models",
    );
    // Only admins set the list; a bad name is refused.
    await expect(updateProject(env.db, OWNER, "demo", { models: ["gpt-5.5"] })).rejects.toMatchObject({
      reason: "admins_only",
    });
    await expect(updateProject(env.db, ADMIN, "demo", { models: ["gpt 5"] })).rejects.toMatchObject({
      reason: "project_models_invalid",
    });
    await updateProject(env.db, ADMIN, "demo", { models: ["gpt-5.5", "gpt-5.6-luna"] });
    const err = await refused("demo", "model=gpt-5.6-terra do X", "request_model_not_allowed", {
      allowed: "gpt-5.5, gpt-5.6-luna",
    });
    const sentence = t("en", "reason.request_model_not_allowed", err.params);
    expect(sentence).toContain("gpt-5.5, gpt-5.6-luna");
    expect(t("fr", "reason.request_model_not_allowed", err.params)).toContain("gpt-5.5, gpt-5.6-luna");

    // The positive control: the same request with a listed model.
    const started = await ask(env.engine, OWNER, "demo", "model=gpt-5.6-luna do X");
    expect(started.conversation).toMatchObject({ model: "gpt-5.6-luna", effort: null, base_branch: null });
    expect(started.item.content).toBe("do X");
    expect((await counts()).conversations).toBe(1);
    // `none` clears the list: the configured model only again.
    await updateProject(env.db, ADMIN, "demo", { models: null });
    await refused("demo", "model=gpt-5.6-luna do X", "request_model_none");
  });

  it("S-OPT-03: an effort outside low, medium and high is refused with the three and changes nothing; high is accepted", async () => {
    env = await testEngine();
    const err = await refused("demo", "effort=max do X", "request_effort_invalid", {
      value: "max",
      allowed: "low, medium, high",
    });
    expect(t("fr", "reason.request_effort_invalid", err.params)).toContain("low, medium, high");
    await refused("demo", "effort= do X", "request_option_empty", { option: "effort" });
    // Options alone are no prompt.
    const before = await counts();
    await expect(ask(env.engine, OWNER, "demo", "effort=high")).rejects.toMatchObject({
      reason: "prompt_empty",
    });
    expect(await counts()).toEqual(before);
    const started = await ask(env.engine, OWNER, "demo", "effort=high do X");
    expect(started.conversation).toMatchObject({ model: null, effort: "high" });
    expect(started.item.content).toBe("do X");
  });

  it("S-OPT-04: branch= naming no branch of the repository is refused with its branches, branch= in a direct project with why; both change nothing; an existing branch is accepted", async (ctx) => {
    if (!jail) ctx.skip();
    env = await testEngine();
    isolateGit();
    const root = path.join(env.dir, "repo");
    fs.mkdirSync(root);
    await git(root, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(root, "app.txt"), "base\n");
    await git(root, "add", "app.txt");
    await git(root, "commit", "-q", "-m", "Base");
    await git(root, "branch", "feature");
    await env.addProject({ name: "repo", path: root, ownerId: "UOWNER", workspaceMode: "branch" });
    const err = await refused("repo", "branch=nope do X", "request_branch_missing", {
      branch: "nope",
      name: "repo",
      allowed: "feature, main",
    });
    expect(t("en", "reason.request_branch_missing", err.params)).toContain("feature, main");
    // Not a branch but a commit or a ref of another kind: refused as well.
    await refused("repo", "branch=main~1 do X", "request_branch_missing");
    await refused("repo", "branch=--all do X", "request_branch_missing");
    await refused("repo", "branch=HEAD do X", "request_branch_missing");
    // A direct project works in its checkout: no base to choose.
    await refused("demo", "branch=main do X", "request_branch_direct", { name: "demo" });
    const started = await ask(env.engine, OWNER, "repo", "branch=feature effort=low do X");
    expect(started.conversation).toMatchObject({ base_branch: "feature", effort: "low" });
    expect(started.item.content).toBe("do X");
  });
});
