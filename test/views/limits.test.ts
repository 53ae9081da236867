import { describe, expect, it } from "vitest";
import { clip, splitForSlack, splitWithFences } from "../../src/views/limits.js";

/** No lone surrogate (String.prototype.isWellFormed is newer than the project's lib). */
const wellFormed = (s: string): boolean =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
const fenceLines = (s: string): number => s.split("\n").filter((l) => /^\s*(```|~~~)/.test(l)).length;

describe("clip", () => {
  it("returns text that fits unchanged", () => {
    expect(clip("bonjour", 7)).toBe("bonjour");
    expect(clip("", 3)).toBe("");
  });

  it("cuts longer text and ends it with an ellipsis within the limit", () => {
    const out = clip("abcdefghij", 5);
    expect(out).toBe("abcd…");
    expect(out.length).toBe(5);
  });

  it("drops the space before the ellipsis", () => {
    expect(clip("hello world", 7)).toBe("hello…");
  });

  it("never separates a surrogate pair", () => {
    const out = clip("ab😀cd", 4); // the emoji occupies indexes 2-3
    expect(out).toBe("ab…");
    expect(wellFormed(out)).toBe(true);
    for (let max = 1; max < 12; max++) expect(wellFormed(clip("😀😀😀😀😀😀", max))).toBe(true);
  });

  it("gives an empty string for a limit of zero and an ellipsis for a limit of one", () => {
    expect(clip("abc", 0)).toBe("");
    expect(clip("abc", 1)).toBe("…");
  });
});

describe("splitForSlack", () => {
  it("returns short text as one chunk and empty text as none", () => {
    expect(splitForSlack("court", 100)).toEqual(["court"]);
    expect(splitForSlack("", 100)).toEqual([]);
  });

  it("refuses a limit too small to keep code blocks balanced", () => {
    expect(() => splitForSlack("x", 10)).toThrow(RangeError);
  });

  it("cuts on paragraph boundaries when there are some", () => {
    const paragraphs = Array.from({ length: 10 }, (_, i) => `Paragraphe ${i} ${"mot ".repeat(10).trim()}.`);
    const text = paragraphs.join("\n\n");
    const chunks = splitForSlack(text, 120);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(120);
      expect(c.trimEnd().endsWith(".")).toBe(true);
    }
    expect(chunks.join("")).toBe(text);
  });

  it("falls back to lines, then words, then hard cuts, losing nothing", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `ligne ${i}`).join("\n");
    const words = "mot ".repeat(200);
    const blob = "x".repeat(500);
    for (const text of [lines, words, blob]) {
      const chunks = splitForSlack(text, 64);
      for (const c of chunks) expect(c.length).toBeLessThanOrEqual(64);
      expect(chunks.join("")).toBe(text);
    }
    expect(splitForSlack(lines, 64)[0]?.endsWith("\n")).toBe(true);
    expect(splitForSlack(words, 64)[0]?.endsWith(" ")).toBe(true);
  });

  it("never separates a surrogate pair on a hard cut", () => {
    const text = "😀".repeat(300);
    const chunks = splitForSlack(text, 65);
    for (const c of chunks) {
      expect(wellFormed(c)).toBe(true);
      expect(c.length).toBeLessThanOrEqual(65);
    }
    expect(chunks.join("")).toBe(text);
  });

  it("closes a code block at the end of a chunk and reopens it with its language at the next", () => {
    const code = Array.from({ length: 30 }, (_, i) => `const v${i} = ${i};`).join("\n");
    const text = `Voici le code :\n\n\`\`\`ts\n${code}\n\`\`\`\n\nFin.`;
    const parts = splitWithFences(text, 200);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.map((p) => p.body).join("")).toBe(text);
    for (const [i, p] of parts.entries()) {
      const rendered = p.reopen + p.body + p.close;
      expect(rendered.length).toBeLessThanOrEqual(200);
      expect(fenceLines(rendered) % 2).toBe(0);
      if (i > 0 && parts[i - 1]?.close) expect(p.reopen).toBe("```ts\n");
      if (p.close) expect(p.close.trim()).toBe("```");
    }
    expect(splitForSlack(text, 200)).toEqual(parts.map((p) => p.reopen + p.body + p.close));
  });

  it("does not end a chunk with an empty code block right after its opening fence", () => {
    const text = `${"intro ".repeat(15)}\n\`\`\`\n${"code line\n".repeat(20)}\`\`\`\n`;
    for (const chunk of splitForSlack(text, 100)) expect(chunk).not.toMatch(/```\n```$/);
  });

  it("keeps a long mix of prose and code blocks balanced in every chunk without losing content", () => {
    let text = "";
    for (let i = 0; text.length < 60_000; i++) {
      text += `## Section ${i}\n\n${"Du texte explicatif assez long pour remplir. ".repeat(8)}\n\n`;
      text += `\`\`\`python\n${Array.from({ length: 25 }, (_, j) => `print("ligne ${i}.${j}")`).join("\n")}\n\`\`\`\n\n`;
    }
    const parts = splitWithFences(text, 3000);
    expect(parts.map((p) => p.body).join("")).toBe(text);
    for (const p of parts) {
      const rendered = p.reopen + p.body + p.close;
      expect(rendered.length).toBeLessThanOrEqual(3000);
      expect(fenceLines(rendered) % 2).toBe(0);
    }
  });

  it("treats ```inline``` on one line as code, not as an opening fence", () => {
    const text = `${"```x``` ".repeat(30)}\n${"mot ".repeat(30)}`;
    for (const part of splitWithFences(text, 80)) expect(part.reopen + part.close).toBe("");
  });
});
