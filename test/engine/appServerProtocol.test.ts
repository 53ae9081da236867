import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveCodexBinary } from "../../src/engine/codex/codexBinary.js";
import {
  committedProtocol,
  generateProtocol,
  PROTOCOL_DIR,
  protocolRoots,
} from "../../scripts/gen-app-server-protocol.js";

const root = path.resolve(".");

/** Names every file that is missing, extra or different between two protocol copies. */
function differences(expected: Map<string, string>, actual: Map<string, string>): string[] {
  const names = [...new Set([...expected.keys(), ...actual.keys()])].sort();
  return names.flatMap((name) => {
    if (!actual.has(name)) return [`${name}: missing from ${PROTOCOL_DIR}`];
    if (!expected.has(name)) return [`${name}: committed but no longer generated (or no longer used)`];
    return expected.get(name) === actual.get(name)
      ? []
      : [`${name}: differs from what the pinned Codex generates`];
  });
}

describe("the app-server protocol codexpi speaks is the pinned Codex's", () => {
  it("the committed protocol files are exactly what `codex app-server generate-ts` writes for the types src/ imports", async () => {
    const bin = resolveCodexBinary(process.env.CODEX_BIN);
    expect(bin, "the pinned Codex binary").toBeTruthy();
    const roots = protocolRoots(root);
    // Positive control: the runner's types are among the roots, so the check covers them.
    expect(roots).toContain(path.join("v2", "ThreadStartParams.ts"));
    const generated = await generateProtocol(bin!, roots);
    expect(generated.size).toBeGreaterThan(roots.length);
    expect(differences(generated, committedProtocol(root))).toEqual([]);
  });

  it("positive control: a changed, a missing and an extra file are each named", () => {
    const generated = new Map([
      ["a.ts", "export type A = 1;"],
      ["b.ts", "export type B = 2;"],
    ]);
    const committed = new Map([
      ["a.ts", "export type A = 3;"],
      ["c.ts", "export type C = 4;"],
    ]);
    expect(differences(generated, committed)).toEqual([
      "a.ts: differs from what the pinned Codex generates",
      `b.ts: missing from ${PROTOCOL_DIR}`,
      "c.ts: committed but no longer generated (or no longer used)",
    ]);
  });
});
