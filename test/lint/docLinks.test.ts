import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The README is a quick start that sends readers to docs/ for the rest, and messages in src/ send
// operators to a section (`README.md#quick-start`, `docs/setup.md#the-model`): a link that leads
// nowhere is a dead end for exactly the person who needed it (issue 20: "see Installation").

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a Markdown text's headings (outside code fences), duplicates numbered as GitHub does. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fence = !fence;
    const m = !fence && /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Why `target` (a path relative to `from`'s directory, with an optional #anchor) leads nowhere, or null. */
function deadEnd(files: ReadonlyMap<string, string>, from: string, target: string): string | null {
  const [file = "", anchor] = target.split("#");
  const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(from), file)) : from;
  const text = files.get(resolved) ?? (fs.existsSync(resolved) ? "" : undefined);
  if (text === undefined) return `${from}: ${target}: no file ${resolved}`;
  if (anchor && !anchors(text).has(anchor)) return `${from}: ${target}: no heading #${anchor} in ${resolved}`;
  return null;
}

/** Every relative link of the Markdown files (outside code fences) that leads nowhere. */
function deadLinks(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (!file.endsWith(".md")) continue;
    const prose = text.replace(/^```[\s\S]*?^```/gm, "");
    for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue; // https:, mailto:
      const why = deadEnd(files, file, target!);
      if (why) found.push(why);
    }
  }
  return found;
}

/** Every `README.md#x` or `docs/y.md#x` a source file cites that leads nowhere. */
function deadCitations(sources: ReadonlyMap<string, string>, docs: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of sources)
    for (const [cited, target] of text.matchAll(/\b((?:README|docs\/[\w-]+)\.md(?:#[\w-]+)?)/g)) {
      const why = deadEnd(docs, ".", target!);
      if (why) found.push(`${file}: ${cited}: ${why}`);
    }
  return found;
}

const walk = (dir: string, ext: RegExp): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? walk(path.posix.join(dir, e.name), ext) : [path.posix.join(dir, e.name)],
    )
    .filter((f) => ext.test(f));

const read = (names: string[]) => new Map(names.map((f) => [f, fs.readFileSync(f, "utf8")] as const));

describe("links to the README and docs/", () => {
  const docs = read(["README.md", ...walk("docs", /\.md$/)]);

  it("S-FH-06: every link between the README and docs/ leads to an existing file and heading", () => {
    expect(docs.size).toBeGreaterThan(5);
    expect(deadLinks(docs)).toEqual([]);
  });

  it("S-FH-06: every README or docs section cited in src/ exists", () => {
    const sources = read(walk("src", /\.ts$/));
    const cited = [...sources.values()].join("\n").match(/\b(README|docs\/[\w-]+)\.md#[\w-]+/g) ?? [];
    expect(cited.length).toBeGreaterThanOrEqual(2); // the quick start and the model's set-up, at least
    expect(deadCitations(sources, docs)).toEqual([]);
  });

  it("positive control: a missing heading, file or cited section is reported", () => {
    const fixture = new Map([
      [
        "README.md",
        "# T\n\n## Quick start\n\nsee [a](docs/a.md#the-model), [b](docs/b.md), [c](#quick-start)\n",
      ],
      ["docs/a.md", "# A\n\n## The modèle\n\n```\n## The model\n```\n"],
    ]);
    expect(deadLinks(fixture)).toEqual([
      "README.md: docs/a.md#the-model: no heading #the-model in docs/a.md",
      "README.md: docs/b.md: no file docs/b.md",
    ]);
    expect(deadCitations(new Map([["src/x.ts", '"see README.md#installation"']]), fixture)).toEqual([
      "src/x.ts: README.md#installation: .: README.md#installation: no heading #installation in README.md",
    ]);
    expect(anchors("## Approvals (commands outside the sandbox)\n## Configuration (environment)")).toEqual(
      new Set(["approvals-commands-outside-the-sandbox", "configuration-environment"]),
    );
  });
});
