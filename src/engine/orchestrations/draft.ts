import { slugify } from "../protocol/index.js";
import { createHash } from "node:crypto";
import path from "node:path";
import { t, type Locale } from "../../i18n/index.js";
import { quote } from "../text/index.js";

/** What a draft spec is composed from. */
export interface DraftInput {
  name: string;
  request: string;
  criteria: string[];
  tests: string[][];
  /** Feedback of the rejected versions, oldest first. */
  feedback: string[];
}

/**
 * The draft spec people approve: the request, the acceptance criteria, the tests that will decide,
 * and every piece of feedback given on earlier versions (so a rejection visibly changes it).
 */
export function composeDraft(locale: Locale, d: DraftInput): string {
  const lines = [
    t(locale, "orch.draft_heading", { name: d.name }),
    "",
    `*${t(locale, "orch.draft_request")}*`,
    d.request.trim(),
    "",
  ];
  lines.push(`*${t(locale, "orch.draft_criteria")}*`, ...d.criteria.map((c) => `- ${c.trim()}`), "");
  lines.push(`*${t(locale, "orch.draft_tests")}*`);
  lines.push(
    ...(d.tests.length
      ? d.tests.map((argv) => `- \`${displayArgv(argv)}\``)
      : [`- ${t(locale, "orch.draft_no_tests")}`]),
  );
  if (d.feedback.length) {
    lines.push("", `*${t(locale, "orch.draft_feedback")}*`);
    lines.push(
      ...d.feedback.map(
        (f, i) => `- ${t(locale, "orch.draft_feedback_item", { version: i + 1, feedback: f.trim() })}`,
      ),
    );
  }
  return lines.join("\n");
}

/** The hash an approval must quote: it names one exact version of the draft. */
export function draftHash(version: number, draft: string): string {
  return createHash("sha256").update(`${version}\n${draft}`).digest("hex");
}

/** An argv list shown as a shell would read it (display only: tests never run through a shell). */
export function displayArgv(argv: string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
}

/** The dedicated branch of an orchestration. */
export const branchName = (name: string, id: string): string =>
  `codexpi/orch-${slugify(name, "orchestration")}-${id.slice(0, 8)}`;

/** Where an orchestration's clone lives: under the data dir, never inside the project. */
export const clonePath = (dataDir: string, name: string, id: string): string =>
  path.join(dataDir, "clones", "orch", `${slugify(name, "orchestration")}-${id.slice(0, 8)}`);

/** The first prompt of the agent: the approved draft, quoted as a person's text. */
export function startPrompt(locale: Locale, o: { name: string; branch: string; draft: string }): string {
  return t(locale, "prompt.orch_start", { name: o.name, branch: o.branch, draft: quote(o.draft) });
}

/** A correction round: the person's feedback, and the failed verification's output if any. */
export function correctionsPrompt(
  locale: Locale,
  o: { name: string; feedback: string; failedOutput: string | null },
): string {
  const verification = o.failedOutput
    ? t(locale, "prompt.orch_failed_verification", { output: quote(o.failedOutput) })
    : "";
  return t(locale, "prompt.orch_corrections", { name: o.name, feedback: quote(o.feedback), verification });
}
