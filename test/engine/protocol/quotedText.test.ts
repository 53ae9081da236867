import { describe, expect, it } from "vitest";
import { quotedOrCode } from "../../../src/engine/protocol/quotedText.js";

/** Whether the first occurrence of `word` in `text` is quoted or code. */
const quoted = (text: string, word = "KEY"): boolean => {
  const at = text.indexOf(word);
  return quotedOrCode(text)(at, at + word.length);
};

describe("quotedOrCode", () => {
  it("plain prose is the agent's own words", () => {
    expect(quoted("Voici KEY et la suite")).toBe(false);
    expect(quoted("```\ncode\n```\nKEY")).toBe(false);
    expect(quoted("> citation\nKEY")).toBe(false);
  });

  it("fenced blocks, closed or not, with backticks or tildes, indented or not, are code", () => {
    expect(quoted("```\nKEY\n```")).toBe(true);
    expect(quoted("~~~sh\nKEY\n~~~")).toBe(true);
    expect(quoted("texte\n```\nKEY")).toBe(true);
    expect(quoted("  ```\n  KEY\n  ```")).toBe(true);
    expect(quoted("````\n```\nKEY\n```\n````")).toBe(true);
    // "```x```" on one line is inline code, not an opener: the next line is prose.
    expect(quoted("```x```\nKEY")).toBe(false);
    // A shorter or different closing fence does not close.
    expect(quoted("````\n```\n~~~~\nKEY")).toBe(true);
  });

  it("lines starting with > are quotes", () => {
    expect(quoted("> KEY")).toBe(true);
    expect(quoted("  >> nested KEY")).toBe(true);
    expect(quoted("a > b KEY")).toBe(false);
  });

  it("a code span holding more than the stretch is code; holding exactly it is markup", () => {
    expect(quoted("`KEY {}`")).toBe(true);
    expect(quoted("``KEY`` {}")).toBe(false);
    expect(quoted("` KEY ` {}")).toBe(false);
    expect(quoted("`a` KEY `b`")).toBe(false);
    expect(quoted("`a\nKEY b`")).toBe(true); // a span may cross a line within a paragraph
    expect(quoted("`a\n\nKEY b`")).toBe(false); // but not a blank line
    expect(quoted("`unclosed KEY")).toBe(false);
    expect(quoted("``a` KEY``")).toBe(true); // runs pair by length
  });

  it("stays linear on pathological text", () => {
    const text = `${`${"`".repeat(1)}x${"``".repeat(1)}y`.repeat(20_000)}\nKEY`;
    const started = Date.now();
    quoted(text);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
