import fs from "node:fs";
import path from "node:path";

/** Every .ts file under a directory (paths as given, joined). */
export function tsFilesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? tsFilesUnder(path.join(dir, e.name))
        : e.name.endsWith(".ts")
          ? [path.join(dir, e.name)]
          : [],
    );
}

/**
 * The source with its comments blanked (newlines kept, so offsets and line numbers still hold), and
 * the contents of its strings too when `strings` is "blank". Strings and template literals are
 * skipped whole, so a `//` inside a URL is not taken for a comment; regular expressions are not
 * recognised, which only matters for one holding a quote.
 */
export function stripComments(source: string, strings: "keep" | "blank" = "keep"): string {
  let out = "";
  let i = 0;
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end === -1 ? source.length : end;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === "\\" ? 2 : 1;
      const literal = source.slice(i, j + 1);
      out += strings === "keep" ? literal : c + blank(literal.slice(1, -1)) + c;
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The 1-based line of an offset. */
export const lineOf = (source: string, offset: number): number => source.slice(0, offset).split("\n").length;

/** The lines holding an `as never` cast in code (a cast that silences every type error). */
export function asNeverCasts(source: string): number[] {
  const code = stripComments(source, "blank");
  return [...code.matchAll(/\bas\s+never\b/g)].map((m) => lineOf(code, m.index));
}

/**
 * The lines in code that set one of `names` on an object: `x.name = …` (and `+=`, `??=`, …),
 * `x["name"] = …`, `Object.defineProperty(x, "name", …)`, `Reflect.set(x, "name", …)`,
 * `Object.assign(x, { name … })`. Comments never count, nor strings that merely mention it; an
 * object literal's own property (`{ name: f }`) or a comparison (`x.name === f`) is no assignment.
 */
export function propertyAssignments(source: string, names: readonly string[]): number[] {
  const code = stripComments(source, "blank");
  const withStrings = stripComments(source, "keep");
  const name = `(?:${names.join("|")})`;
  const patterns: Array<[string, RegExp]> = [
    [code, new RegExp(`\\.\\s*${name}\\s*(?:[-+*/%&|^]|\\?\\?|&&|\\|\\|)?=(?![=>])`, "g")],
    [
      withStrings,
      new RegExp(`\\[\\s*["'\`]${name}["'\`]\\s*\\]\\s*(?:[-+*/%&|^]|\\?\\?|&&|\\|\\|)?=(?![=>])`, "g"),
    ],
    [
      withStrings,
      new RegExp(`\\b(?:defineProperty|Reflect\\.set)\\s*\\([^;]*?,\\s*["'\`]${name}["'\`]`, "g"),
    ],
    [code, new RegExp(`\\bObject\\.assign\\s*\\([^;]*?\\b${name}\\b`, "g")],
  ];
  const lines = patterns.flatMap(([text, re]) => [...text.matchAll(re)].map((m) => lineOf(text, m.index)));
  return [...new Set(lines)].sort((a, b) => a - b);
}
