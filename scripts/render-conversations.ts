// The states of a conversation's message as a person sees them, in French and English: the Block
// Kit (JSON) of the state message and a readable rendering of each block, from the real view
// functions. For reviewing texts and layout without Slack:
//   npm run build && node dist/scripts/render-conversations.js [--json-only | --text-only]
import type { Locale } from "../src/i18n/index.js";
import type { Block } from "../src/views/blocks.js";
import { conversationRoot, type ConversationRootInput } from "../src/views/conversation.js";

const MINUTE = 60_000;
const STARTED = Date.UTC(2026, 11, 1, 9, 0, 0);

/** What the person and the agent wrote: in the locale's language, as they would. */
const WRITTEN = {
  en: {
    prompt: "Fix the failing parser test and explain the cause",
    plan: ["Reproduce the failure", "Fix the tokenizer", "Run the whole suite"],
    interim: "The failure comes from the tokenizer's handling of escaped quotes.",
  },
  fr: {
    prompt: "Corrige le test du parseur qui échoue et explique la cause",
    plan: ["Reproduire l’échec", "Corriger le tokeniseur", "Lancer toute la suite"],
    interim: "L’échec vient de la gestion des guillemets échappés par le tokeniseur.",
  },
} satisfies Record<Locale, { prompt: string; plan: string[]; interim: string }>;

/** The four states the issue asks to see: running, waiting on a decision, finished, failed. */
function states(locale: Locale): Array<{ name: string; input: ConversationRootInput }> {
  const w = WRITTEN[locale];
  const base: ConversationRootInput = {
    conversationId: "0193a7c2-demo",
    projectName: "nasflix",
    prompt: w.prompt,
    userId: "U0ALICE",
    status: "queued",
  };
  return [
    {
      name: "running (an activity, the elapsed time, a plan)",
      input: {
        ...base,
        status: "running",
        startedAt: STARTED,
        now: STARTED + 3 * MINUTE + 12_000,
        progress: {
          kind: "command",
          detail: "npm test -- src/parser.test.ts",
          plan: w.plan.map((text, i) => ({ text, done: i === 0 })),
          text: w.interim,
        },
      },
    },
    {
      name: "waiting on a decision (with the link to its question)",
      input: {
        ...base,
        status: "done",
        decisionOpen: true,
        decisionLink: "https://example.slack.com/archives/C0DEV/p1764579600000200",
        startedAt: STARTED,
        finishedAt: STARTED + 2 * MINUTE,
      },
    },
    {
      name: "finished (duration and tokens)",
      input: {
        ...base,
        status: "done",
        startedAt: STARTED,
        finishedAt: STARTED + 4 * MINUTE + 31_000,
        tokens: 48_213,
      },
    },
    {
      name: "failed (Codex's own error, then the catalog's explanation)",
      input: {
        ...base,
        status: "failed",
        error: "stream disconnected before completion: error sending request",
        errorCode: "codex_failed",
        startedAt: STARTED,
        finishedAt: STARTED + 50_000,
      },
    },
  ];
}

type Text = { text: string };
type AnyBlock = {
  type: string;
  block_id?: string;
  text?: Text;
  fields?: Text[];
  elements?: Array<{ type: string; text?: Text | string; style?: string }>;
};

const indent = (text: string, prefix: string) =>
  text
    .split("\n")
    .map((l) => `${prefix}${l}`)
    .join("\n");

/** One block as a person would read it (mrkdwn left as is: it is what Slack formats). */
function blockText(block: Block): string {
  const b = block as unknown as AnyBlock;
  switch (b.type) {
    case "header":
      return `# ${b.text?.text ?? ""}`;
    case "section":
      return [b.text?.text ?? "", ...(b.fields ?? []).map((f) => f.text)].filter(Boolean).join("\n");
    case "context":
      return indent(
        (b.elements ?? []).map((e) => (typeof e.text === "string" ? e.text : "")).join(" · "),
        "│ ",
      );
    case "actions":
      return (b.elements ?? [])
        .map((e) => `[ ${typeof e.text === "object" ? e.text.text : ""} ]${e.style ? ` (${e.style})` : ""}`)
        .join("  ");
    case "divider":
      return "────────";
    default:
      return `(${b.type})`;
  }
}

function blockLabel(block: Block): string {
  const id = (block as { block_id?: string }).block_id;
  return id ? `${block.type} (${id})` : block.type;
}

const mode = process.argv[2];
const out: string[] = [];
for (const locale of ["en", "fr"] as Locale[]) {
  for (const { name, input } of states(locale)) {
    const message = conversationRoot(locale, input);
    out.push(`=== ${locale} · ${name}`);
    if (mode !== "--json-only") {
      out.push(`notification text: ${message.text}`);
      for (const block of message.blocks) out.push(`--- ${blockLabel(block)}`, blockText(block));
    }
    if (mode !== "--text-only") out.push("--- Block Kit", JSON.stringify(message.blocks, null, 2));
    out.push("");
  }
}
// Piped into `head`: a closed pipe ends the script quietly.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code !== "EPIPE") throw err;
  process.exit(0);
});
process.stdout.write(`${out.join("\n")}\n`);
