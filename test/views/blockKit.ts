import { expect } from "vitest";
import type { Block, ButtonElement } from "../../src/views/blocks.js";
import * as L from "../../src/views/limits.js";

function checkButton(b: ButtonElement): void {
  expect(b.text.text.length).toBeLessThanOrEqual(L.MAX_BUTTON_TEXT);
  expect(b.text.text.length).toBeGreaterThan(0);
  expect(b.action_id.length).toBeLessThanOrEqual(L.MAX_ACTION_ID);
  expect((b.value ?? "").length).toBeLessThanOrEqual(L.MAX_BUTTON_VALUE);
  if (b.confirm) {
    expect(b.confirm.title.text.length).toBeLessThanOrEqual(L.MAX_CONFIRM_TITLE);
    expect(b.confirm.text.text.length).toBeLessThanOrEqual(L.MAX_CONFIRM_TEXT);
    expect(b.confirm.confirm.text.length).toBeLessThanOrEqual(L.MAX_CONFIRM_BUTTON);
    expect(b.confirm.deny.text.length).toBeLessThanOrEqual(L.MAX_CONFIRM_BUTTON);
  }
}

/** Asserts every Block Kit limit views must respect, for a message (50) or a surface (100). */
export function expectWithinBlockKit(blocks: Block[], maxBlocks: number = L.MAX_MESSAGE_BLOCKS): void {
  expect(blocks.length).toBeLessThanOrEqual(maxBlocks);
  const ids = blocks.flatMap((b) => (b.block_id === undefined ? [] : [b.block_id]));
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id.length).toBeLessThanOrEqual(L.MAX_BLOCK_ID);
  for (const block of blocks) {
    switch (block.type) {
      case "section":
        if ("text" in block) {
          expect(block.text.text.length).toBeLessThanOrEqual(L.MAX_SECTION_TEXT);
          expect(block.text.text.trim().length).toBeGreaterThan(0);
          if (block.accessory) checkButton(block.accessory);
        } else {
          expect(block.fields.length).toBeLessThanOrEqual(L.MAX_SECTION_FIELDS);
          for (const f of block.fields) expect(f.text.length).toBeLessThanOrEqual(L.MAX_FIELD_TEXT);
        }
        break;
      case "context":
        expect(block.elements.length).toBeGreaterThan(0);
        expect(block.elements.length).toBeLessThanOrEqual(L.MAX_CONTEXT_ELEMENTS);
        for (const e of block.elements) expect(e.text.length).toBeLessThanOrEqual(L.MAX_CONTEXT_TEXT);
        break;
      case "actions":
        expect(block.elements.length).toBeGreaterThan(0);
        expect(block.elements.length).toBeLessThanOrEqual(L.MAX_ACTIONS_ELEMENTS);
        block.elements.forEach(checkButton);
        break;
      case "header":
        expect(block.text.text.length).toBeLessThanOrEqual(L.MAX_HEADER_TEXT);
        break;
      case "divider":
        break;
    }
  }
}

/** Every button in some blocks (actions elements and section accessories). */
export function buttons(blocks: Block[]): ButtonElement[] {
  return blocks.flatMap((b) =>
    b.type === "actions"
      ? b.elements
      : b.type === "section" && "text" in b && b.accessory
        ? [b.accessory]
        : [],
  );
}

/** The mrkdwn or plain text of every text-bearing block, in order. */
export function texts(blocks: Block[]): string[] {
  return blocks.flatMap((b) => {
    if (b.type === "section") return "text" in b ? [b.text.text] : b.fields.map((f) => f.text);
    if (b.type === "context") return b.elements.map((e) => e.text);
    if (b.type === "header") return [b.text.text];
    return [];
  });
}
