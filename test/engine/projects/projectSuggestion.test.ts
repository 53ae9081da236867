import { afterEach, describe, expect, it } from "vitest";
import { projectForActor, type Actor } from "../../../src/engine/projects/index.js";
import type { EngineError } from "../../../src/engine/errors.js";
import { engineErrorText } from "../../../src/i18n/index.js";
import { rightsText } from "../../../src/views/rights.js";
import { testEngine } from "../../support/engine.js";

const BOB: Actor = { userId: "UBOB", isAdmin: false };
const ALICE: Actor = { userId: "UALICE", isAdmin: false };
const ADMIN: Actor = { userId: "UADMIN", isAdmin: true };

// Issue 32: a mistyped project name gets "did you mean", like a mistyped sub-command (S-FH-07),
// taken only from the projects the person may see: a hidden project's name is never revealed.
describe("a mistyped project name", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  const refusal = (actor: Actor, name: string) =>
    projectForActor(env.db, actor, name).then(
      () => {
        throw new Error(`${name} was found`);
      },
      (err: unknown) => err as EngineError,
    );

  it("S-FH-09: is answered with the nearest project the person may see (English, French, Slack's hint after it), never a hidden one", async () => {
    env = await testEngine();
    await env.addProject({ name: "webapp", ownerId: "UBOB" });
    // Alice's: hidden from Bob, and first of the two near-misses of "webap" by name.
    await env.addProject({ name: "webapi", ownerId: "UALICE" });
    await env.addProject({ name: "billing", ownerId: "UALICE" });

    const bob = await refusal(BOB, "webap");
    expect(bob).toMatchObject({ code: "not_found", reason: "project_not_found" });
    expect(bob.params).toEqual({ name: "webap", suggestion: "webapp" });
    expect(engineErrorText("en", bob)).toBe("Project not found: webap (did you mean webapp?)");
    expect(engineErrorText("fr", bob)).toBe("Projet introuvable : webap (voulais-tu dire webapp ?)");
    expect(rightsText("en", bob)).toMatch(
      /^Project not found: webap \(did you mean webapp\?\)\. `\/codex projects` /,
    );
    // Hidden: Alice's "billing" is one edit away, and Bob is told nothing of it.
    const hidden = await refusal(BOB, "billling");
    expect(hidden.params).toEqual({ name: "billling" });
    expect(engineErrorText("en", hidden)).toBe("Project not found: billling");
    expect(JSON.stringify(await refusal(BOB, "webapix"))).not.toContain('webapi"');
    // Positive controls: whoever may see the near-miss is offered it.
    expect((await refusal(ALICE, "webap")).params).toEqual({ name: "webap", suggestion: "webapi" });
    expect((await refusal(ADMIN, "billling")).params).toEqual({ name: "billling", suggestion: "billing" });
    // A word far from every project gets no guess.
    expect((await refusal(ADMIN, "zzzzzzzz")).params).toEqual({ name: "zzzzzzzz" });
  });
});
