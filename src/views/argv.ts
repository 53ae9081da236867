// The tests input of an orchestration: one command per line, each split into an argv the way a
// shell reads words (the commands then run without a shell). Pure.

/** One line of the tests input split into an argv, or why it cannot be. */
export type ArgvResult = { ok: true; argv: string[] } | { ok: false; error: "unclosed_quote" };

/**
 * Splits a command line into its arguments the way a POSIX shell reads words, and nothing more:
 * whitespace separates; '…' keeps everything literally; "…" keeps everything but `\"` and `\\`;
 * a backslash outside quotes takes the next character literally; typographic “…” (as Slack
 * clients autocorrect) count as double quotes. No variables, globs, pipes or redirections: the
 * result is run without a shell.
 */
export function splitArgv(line: string): ArgvResult {
  const argv: string[] = [];
  let current = "";
  let inWord = false;
  let quote: "'" | '"' | "”" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
      continue;
    }
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && (line[i + 1] === '"' || line[i + 1] === "\\"))
        current += line[++i];
      else current += c;
      continue;
    }
    if (/\s/.test(c)) {
      if (inWord) argv.push(current);
      current = "";
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "'" || c === '"') quote = c;
    else if (c === "“") quote = "”";
    else if (c === "\\" && i + 1 < line.length) current += line[++i];
    else current += c;
  }
  if (quote) return { ok: false, error: "unclosed_quote" };
  if (inWord) argv.push(current);
  return { ok: true, argv };
}

/** The tests input: one command per non-blank line; the first line that cannot be split, if any. */
export function parseTests(text: string): { ok: true; tests: string[][] } | { ok: false; line: number } {
  const tests: string[][] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const r = splitArgv(line);
    if (!r.ok) return { ok: false, line: i + 1 };
    if (r.argv.length) tests.push(r.argv);
  }
  return { ok: true, tests };
}
