import { describe, expect, it } from "vitest";
import type { Kysely } from "kysely";
import { migrate, openDatabase } from "../../../src/engine/database.js";
import {
  CLAIMED_STATUSES,
  isTerminal,
  nextStatus,
  statusesAllowing,
  STATUSES,
} from "../../../src/engine/orchestrations/machine.js";
import { composeDraft, displayArgv, draftHash } from "../../../src/engine/orchestrations/draft.js";
import * as m0006 from "../../../db/migrations/0006_orchestrations.js";

describe("the orchestration state machine", () => {
  it("merging needs an approved revision, and a project's confirmation step when it asks for one", () => {
    expect(nextStatus("USER_REVIEW", "approve_revision")).toBe("AWAITING_MERGE_CONFIRMATION");
    expect(nextStatus("USER_REVIEW", "approve_and_merge")).toBe("MERGING");
    expect(statusesAllowing("confirm_merge")).toEqual(["AWAITING_MERGE_CONFIRMATION"]);
    expect(statusesAllowing("merged")).toEqual(["MERGING"]);
  });

  it("nobody acts on a step while git or tests hold it, and terminal states accept nothing", () => {
    for (const s of CLAIMED_STATUSES) {
      for (const action of ["cancel", "corrections", "verify", "approve_draft"] as const)
        expect(nextStatus(s, action), `${s} ${action}`).toBeNull();
    }
    expect(STATUSES.filter(isTerminal)).toEqual(["MERGED", "CANCELLED"]);
  });

  it("cancel is open from every state a person waits in", () => {
    expect(statusesAllowing("cancel").sort()).toEqual(
      [
        "DRAFT_REVIEW",
        "AGENT_RUNNING",
        "AGENT_FAILED",
        "AWAITING_VERIFICATION",
        "VERIFICATION_FAILED",
        "USER_REVIEW",
        "AWAITING_MERGE_CONFIRMATION",
      ].sort(),
    );
  });
});

describe("drafts", () => {
  it("a draft names the request, the criteria and the tests, and its hash changes with its version", () => {
    const d = composeDraft("en", {
      name: "X",
      request: "Do it.",
      criteria: ["works"],
      tests: [["python3", "-c", "print('a b')"]],
      feedback: ["more proof"],
    });
    expect(d).toContain("Do it.");
    expect(d).toContain("- works");
    expect(d).toContain(`python3 -c 'print('\\''a b'\\'')'`);
    expect(d).toContain("more proof");
    expect(draftHash(1, d)).not.toBe(draftHash(2, d));
    expect(displayArgv(["a", "b c"])).toBe("a 'b c'");
  });
});

describe("migration 0006", () => {
  it("is idempotent: running it again on a migrated database changes nothing", async () => {
    const db = openDatabase(":memory:");
    await migrate(db as unknown as Kysely<unknown>);
    await m0006.up(db as unknown as Kysely<unknown>);
    const tables = (await db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(["orchestrations", "orchestration_events"]));
    await db.destroy();
  });
});
