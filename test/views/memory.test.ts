import { describe, expect, it } from "vitest";
import type { MemoryListing, NoteView } from "../../src/engine/api/model.js";
import { ACTIONS } from "../../src/views/ids.js";
import { homeMemoryBlocks, memoryCard, memoryListMessage } from "../../src/views/memory.js";
import { buttons, expectWithinBlockKit, texts } from "./blockKit.js";

const note = (over: Partial<NoteView> = {}): NoteView => ({
  id: "n1",
  project: "demo",
  text: "staging <is> deployed with `make ship`",
  status: "proposed",
  source: "agent",
  addedBy: "agent:c1",
  decidedBy: null,
  conversationId: "c1",
  createdAt: Date.UTC(2026, 11, 6, 10),
  updatedAt: Date.UTC(2026, 11, 6, 10),
  ...over,
});

describe("project memory views (S-MEM-06, S-MEM-09, S-MEM-10)", () => {
  it("S-MEM-06: an open proposal's card has Keep, Edit and Discard carrying the note's id, its words quoted and escaped; answered, none", () => {
    const open = memoryCard("en", note());
    expectWithinBlockKit(open.blocks);
    expect(buttons(open.blocks).map((b) => [b.action_id, b.value])).toEqual([
      [ACTIONS.memoryKeep, "n1"],
      [ACTIONS.memoryEdit, "n1"],
      [ACTIONS.memoryDiscard, "n1"],
    ]);
    expect(texts(open.blocks).join("\n")).toContain(">staging &lt;is&gt; deployed");
    const kept = memoryCard("en", note({ status: "kept", decidedBy: "UOWNER" }));
    expect(buttons(kept.blocks)).toEqual([]);
    expect(texts(kept.blocks).join("\n")).toContain("Kept by <@UOWNER>");
    expect(
      texts(memoryCard("fr", note({ status: "discarded", decidedBy: "UOWNER" })).blocks).join("\n"),
    ).not.toContain("staging");
  });

  it("S-MEM-09: the list gives Edit and Forget only to those who may, marks what the budget leaves out, and stays within Block Kit with many notes", () => {
    const notes = Array.from({ length: 60 }, (_, i) =>
      note({ id: `n${i}`, status: "kept", source: "person", addedBy: "UOWNER" }),
    );
    const listing: MemoryListing = { project: "demo", mayWrite: true, notes, leftOut: ["n59"], budget: 4000 };
    const writable = memoryListMessage("en", listing);
    expectWithinBlockKit(writable.blocks);
    expect(buttons(writable.blocks).filter((b) => b.action_id === ACTIONS.memoryForget)).not.toHaveLength(0);
    expect(texts(writable.blocks).join("\n")).toContain("1 note left out of every turn");
    const readOnly = memoryListMessage("en", { ...listing, mayWrite: false });
    expect(buttons(readOnly.blocks)).toEqual([]);
    expect(
      texts(memoryListMessage("fr", { ...listing, notes: [], leftOut: [] }).blocks).join("\n"),
    ).toContain("ne garde aucune note");
  });

  it("S-MEM-10: App Home lists each project's notes", () => {
    const listing: MemoryListing = {
      project: "demo",
      mayWrite: false,
      notes: [note({ status: "kept" })],
      leftOut: [],
      budget: 4000,
    };
    const blocks = homeMemoryBlocks("en", [listing]);
    expectWithinBlockKit(blocks);
    expect(texts(blocks).join("\n")).toContain("`n1` staging &lt;is&gt; deployed");
  });
});
