/** A half-open range of character offsets. */
interface Range {
  start: number;
  end: number;
}

// The same fence and quote rules as the Slack renderer (views/mrkdwn.ts): what people see as code
// or as a quote is exactly what markers ignore.
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
const QUOTE_LINE = /^[ \t]*>/;

/**
 * Tells whether a stretch of an agent's Markdown is quoted or code rather than its own words: it
 * lies in a fenced code block (``` or ~~~, to the end of the text when never closed), on a `>`
 * quote line, or in an inline code span holding more than that stretch. A code span holding
 * exactly the stretch (`` `KEYWORD` ``) is the agent's own markup, not a quote.
 */
export function quotedOrCode(text: string): (start: number, end: number) => boolean {
  const { fences, quotes, prose } = blocks(text);
  const spans = prose.flatMap((r) => codeSpans(text, r));
  return (start, end) => {
    if (contains(fences, start, end) || contains(quotes, start, end)) return true;
    const span = lastStartingBefore(spans, end);
    if (!span || span.end <= start) return false;
    return (
      text
        .slice(span.start, span.end)
        .replace(/^`+|`+$/g, "")
        .trim() !== text.slice(start, end)
    );
  };
}

// Ranges are sorted and disjoint: a binary search finds the only candidate.
function lastStartingBefore(ranges: Range[], end: number): Range | undefined {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ranges[mid] as Range).start < end) lo = mid + 1;
    else hi = mid;
  }
  return ranges[lo - 1];
}

function contains(ranges: Range[], start: number, end: number): boolean {
  const r = lastStartingBefore(ranges, start + 1);
  return r !== undefined && r.start <= start && end <= r.end;
}

/** Fenced blocks (their fence lines included), quote lines, and the prose paragraphs in between. */
function blocks(text: string): { fences: Range[]; quotes: Range[]; prose: Range[] } {
  const fences: Range[] = [];
  const quotes: Range[] = [];
  const prose: Range[] = [];
  let open: { start: number; char: string; len: number } | null = null;
  let paragraph: Range | null = null;
  const endParagraph = () => {
    if (paragraph) prose.push(paragraph);
    paragraph = null;
  };
  for (let start = 0; start <= text.length; ) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl + 1;
    const line = text.slice(start, nl === -1 ? text.length : nl);
    if (open) {
      const close = FENCE_CLOSE.exec(line);
      if (close && (close[1] as string)[0] === open.char && (close[1] as string).length >= open.len) {
        fences.push({ start: open.start, end });
        open = null;
      }
    } else {
      const fence = FENCE_OPEN.exec(line);
      // "```code```" on one line is inline code, not an opener.
      if (fence && !((fence[1] as string)[0] === "`" && (fence[2] as string).includes("`"))) {
        endParagraph();
        open = { start, char: (fence[1] as string)[0] as string, len: (fence[1] as string).length };
      } else if (QUOTE_LINE.test(line)) {
        endParagraph();
        quotes.push({ start, end });
      } else if (line.trim() === "") {
        endParagraph();
      } else {
        paragraph = paragraph ? { start: paragraph.start, end } : { start, end };
      }
    }
    if (nl === -1) break;
    start = end;
  }
  if (open) fences.push({ start: open.start, end: text.length });
  endParagraph();
  return { fences, quotes, prose };
}

/** Inline code spans of one paragraph: a run of n backticks up to the next run of exactly n. */
function codeSpans(text: string, paragraph: Range): Range[] {
  const runs = [...text.slice(paragraph.start, paragraph.end).matchAll(/`+/g)].map((m) => ({
    at: paragraph.start + m.index,
    len: m[0].length,
  }));
  // The next run of the same length after each run, found in one backward pass (linear).
  const next: Array<number | undefined> = [];
  const seen = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    const len = (runs[i] as { len: number }).len;
    next[i] = seen.get(len);
    seen.set(len, i);
  }
  const spans: Range[] = [];
  for (let i = 0; i < runs.length; i++) {
    const j = next[i];
    if (j === undefined) continue;
    const opener = runs[i] as { at: number };
    const closer = runs[j] as { at: number; len: number };
    spans.push({ start: opener.at, end: closer.at + closer.len });
    i = j;
  }
  return spans;
}
