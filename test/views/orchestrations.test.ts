import { describe, expect, it } from "vitest";
import type {
  OrchestrationStatus,
  OrchestrationView,
  VerificationRecord,
} from "../../src/engine/orchestrations/index.js";
import { STATUSES } from "../../src/engine/orchestrations/machine.js";
import type { Block } from "../../src/views/blocks.js";
import { ACTIONS, BLOCKS, CALLBACKS } from "../../src/views/ids.js";
import type { InputBlock, ModalView, StateValues } from "../../src/views/interactive.js";
import * as L from "../../src/views/limits.js";
import {
  ORCH_FEEDBACK_INPUT,
  ORCH_INPUTS,
  draftMessages,
  feedbackModal,
  orchestrationButtons,
  orchestrationFormErrors,
  orchestrationModal,
  orchestrationRoot,
  orchestrationsView,
  parseOrchestrationValue,
  parseTests,
  readFeedback,
  readFeedbackMetadata,
  readOrchestrationForm,
  readOrchestrationMetadata,
  splitArgv,
  stepMessages,
  verificationMessages,
} from "../../src/views/orchestrations.js";
import { buttons, expectWithinBlockKit, texts } from "./blockKit.js";
import { failureNote } from "../../src/i18n/failures.js";

const HASH = "a".repeat(64);
const REV = "0123456789abcdef0123456789abcdef01234567";

const orchestration = (over: Partial<OrchestrationView> = {}): OrchestrationView => ({
  id: "11111111-2222-3333-4444-555555555555",
  project_id: "p1",
  project_name: "demo",
  owner_id: "UOWNER",
  name: "Refonte",
  request: "Changer le fichier",
  acceptance_criteria: ["hello.txt vaut bonjour"],
  tests: [["node", "-e", "process.exit(0)"]],
  engine: "codex",
  status: "DRAFT_REVIEW",
  draft: "Spécification : Refonte\n\n*Demande*\nChanger le fichier",
  draft_version: 1,
  draft_hash: HASH,
  base_branch: "main",
  branch: null,
  worktree_path: null,
  conversation_id: null,
  queue_id: null,
  verified_revision: null,
  approved_revision: null,
  merged_revision: null,
  merge_confirmation_required: true,
  verification: null,
  last_error: null,
  events: [],
  created_at: 1,
  updated_at: 1,
  ...over,
});

const record = (over: Partial<VerificationRecord> = {}): VerificationRecord => ({
  revision: REV,
  passed: true,
  results: [
    {
      command: "node -e 'process.exit(0)'",
      exitCode: 0,
      timedOut: false,
      passed: true,
      output: "ok\n",
      durationMs: 120,
    },
  ],
  ...over,
});

const all = (blocks: Block[]): string => texts(blocks).join("\n");
const modalInputs = (view: ModalView) => view.blocks.filter((b): b is InputBlock => b.type === "input");
const state = (values: Record<string, string>): StateValues =>
  Object.fromEntries(
    Object.entries(values).map(([field, value]) => {
      const input = ORCH_INPUTS[field as keyof typeof ORCH_INPUTS];
      return [input.blockId, { [input.actionId]: { value } }];
    }),
  );

describe("splitArgv", () => {
  it("splits on whitespace and keeps quoted arguments together, without any shell meaning", () => {
    expect(splitArgv("npm test")).toEqual({ ok: true, argv: ["npm", "test"] });
    expect(splitArgv(`  node   -e "process.exit(require('fs').existsSync('a b') ? 0 : 1)"  `)).toEqual({
      ok: true,
      argv: ["node", "-e", "process.exit(require('fs').existsSync('a b') ? 0 : 1)"],
    });
    expect(splitArgv(`printf '%s "x"' $HOME *.txt | wc`)).toEqual({
      ok: true,
      argv: ["printf", '%s "x"', "$HOME", "*.txt", "|", "wc"],
    });
  });

  it("handles escapes, empty arguments, adjacent quotes and typographic quotes", () => {
    expect(splitArgv(`echo "a \\"quoted\\" word" back\\ slash 'it''s' ""`)).toEqual({
      ok: true,
      argv: ["echo", 'a "quoted" word', "back slash", "its", ""],
    });
    expect(splitArgv(`echo "x\\n"`)).toEqual({ ok: true, argv: ["echo", "x\\n"] });
    expect(splitArgv("grep “deux mots” fichier")).toEqual({
      ok: true,
      argv: ["grep", "deux mots", "fichier"],
    });
    expect(splitArgv("echo l’état")).toEqual({ ok: true, argv: ["echo", "l’état"] });
  });

  it("refuses an unclosed quote instead of guessing", () => {
    expect(splitArgv(`node -e "oops`)).toEqual({ ok: false, error: "unclosed_quote" });
    expect(splitArgv("echo 'x")).toEqual({ ok: false, error: "unclosed_quote" });
  });

  it("parseTests reads one command per non-blank line and names the first bad line", () => {
    expect(parseTests('npm test\n\n  \nnode -e "1"\r\n')).toEqual({
      ok: true,
      tests: [
        ["npm", "test"],
        ["node", "-e", "1"],
      ],
    });
    expect(parseTests('npm test\nnode -e "1')).toEqual({ ok: false, line: 2 });
  });
});

describe("the creation modal", () => {
  it("has the orch.create callback, the project and channel in its metadata, and the four inputs", () => {
    const view = orchestrationModal("fr", { projectId: "p1", projectName: "demo <&>", channelId: "C1" });
    expect(view.callback_id).toBe(CALLBACKS.orchCreate);
    expect(readOrchestrationMetadata(view.private_metadata)).toEqual({ projectId: "p1", channelId: "C1" });
    const inputs = modalInputs(view);
    expect(inputs.map((i) => [i.block_id, i.element.action_id])).toEqual(
      Object.values(ORCH_INPUTS).map((i) => [i.blockId, i.actionId]),
    );
    expect(inputs.find((i) => i.block_id === ORCH_INPUTS.request.blockId)?.element.multiline).toBe(true);
    for (const i of inputs) expect(i.element.max_length ?? 0).toBeLessThanOrEqual(3000);
    expect(view.title.text.length).toBeLessThanOrEqual(L.MAX_MODAL_TITLE);
    expect(JSON.stringify(view.blocks)).toContain("demo &lt;&amp;&gt;");
    expect(readOrchestrationMetadata("not json")).toEqual({});
  });

  it("reads the form: criteria one per line, tests as argv lists; an unclosed quote names the tests field", () => {
    const { form, errors } = readOrchestrationForm(
      "fr",
      state({
        name: " Refonte ",
        request: "Faire\nça",
        criteria: "- premier\n\n• second\n",
        tests: `node -e "console.log('a b')"\nnpm test`,
      }),
    );
    expect(errors).toEqual({});
    expect(form).toEqual({
      name: "Refonte",
      request: "Faire\nça",
      acceptance_criteria: ["premier", "second"],
      tests: [
        ["node", "-e", "console.log('a b')"],
        ["npm", "test"],
      ],
    });
    const bad = readOrchestrationForm("en", state({ name: "x", request: "y", tests: "ok\nnode -e 'broken" }));
    expect(bad.errors).toEqual({ [ORCH_INPUTS.tests.blockId]: "Line 2: unclosed quote." });
  });

  it("maps the engine's refused fields to their inputs, anything else to the name", () => {
    expect(Object.keys(orchestrationFormErrors("fr", ["acceptance_criteria", "tests"]))).toEqual([
      ORCH_INPUTS.criteria.blockId,
      ORCH_INPUTS.tests.blockId,
    ]);
    expect(orchestrationFormErrors("fr", [], "Projet introuvable")).toEqual({
      [ORCH_INPUTS.name.blockId]: "Projet introuvable",
    });
  });
});

describe("the feedback modals", () => {
  it("reject and corrections have their own callbacks and carry the orchestration's id", () => {
    const o = orchestration({ name: "<!channel>" });
    const reject = feedbackModal("fr", "reject", o, { channelId: "C1" });
    const corrections = feedbackModal("en", "corrections", o);
    expect(reject.callback_id).toBe(CALLBACKS.orchReject);
    expect(corrections.callback_id).toBe(CALLBACKS.orchCorrections);
    expect(readFeedbackMetadata(reject.private_metadata)).toEqual({ id: o.id, channelId: "C1" });
    expect(readFeedbackMetadata(corrections.private_metadata)).toEqual({ id: o.id });
    expect(JSON.stringify(reject.blocks)).not.toContain("<!channel>");
    expect(modalInputs(reject)[0]).toMatchObject({
      block_id: ORCH_FEEDBACK_INPUT.blockId,
      element: { action_id: ORCH_FEEDBACK_INPUT.actionId, multiline: true },
    });
    expect(
      readFeedback({
        [ORCH_FEEDBACK_INPUT.blockId]: { [ORCH_FEEDBACK_INPUT.actionId]: { value: "  plus court  " } },
      }),
    ).toBe("plus court");
    for (const v of [reject, corrections]) expect(v.title.text.length).toBeLessThanOrEqual(L.MAX_MODAL_TITLE);
  });
});

describe("buttons per status", () => {
  const expected: Record<OrchestrationStatus, string[]> = {
    DRAFT_REVIEW: [ACTIONS.orchDraftApprove, ACTIONS.orchDraftReject],
    PREPARING: [],
    AGENT_RUNNING: [],
    AGENT_FAILED: [ACTIONS.orchCorrections],
    AWAITING_VERIFICATION: [ACTIONS.orchVerify, ACTIONS.orchCorrections],
    VERIFYING: [],
    VERIFICATION_FAILED: [ACTIONS.orchVerify, ACTIONS.orchCorrections],
    USER_REVIEW: [ACTIONS.orchApprove, ACTIONS.orchCorrections],
    AWAITING_MERGE_CONFIRMATION: [ACTIONS.orchMergeConfirm, ACTIONS.orchMergeCancel],
    MERGING: [],
    MERGED: [],
    CANCELLING: [],
    CANCELLED: [],
  };

  it("each status shows exactly the buttons it allows, in the root's orch.actions block", () => {
    for (const status of STATUSES) {
      const o = orchestration({
        status,
        verified_revision: status === "USER_REVIEW" ? REV : null,
        branch: "codexpi/orch-x",
      });
      const root = orchestrationRoot("fr", o);
      expect(
        buttons(root.blocks).map((b) => b.action_id),
        status,
      ).toEqual(expected[status]);
      const block = root.blocks.find((b) => b.block_id === BLOCKS.orchActions);
      expect(Boolean(block), status).toBe(expected[status].length > 0);
      expectWithinBlockKit(root.blocks);
    }
  });

  it("approvals carry exactly what was reviewed: the draft's hash, the verified revision", () => {
    const draft = orchestrationButtons("fr", orchestration());
    expect(draft.find((b) => b.action_id === ACTIONS.orchDraftApprove)?.value).toBe(
      `11111111-2222-3333-4444-555555555555|${HASH}`,
    );
    expect(draft.find((b) => b.action_id === ACTIONS.orchDraftReject)?.value).toBe(
      "11111111-2222-3333-4444-555555555555",
    );
    const review = orchestrationButtons(
      "fr",
      orchestration({ status: "USER_REVIEW", verified_revision: REV }),
    );
    expect(review[0]?.value).toBe(`11111111-2222-3333-4444-555555555555|${REV}`);
    expect(parseOrchestrationValue(review[0]!.value!)).toEqual({
      id: "11111111-2222-3333-4444-555555555555",
      token: REV,
    });
    expect(parseOrchestrationValue("only-id")).toEqual({ id: "only-id", token: "" });
    const merge = orchestrationButtons(
      "en",
      orchestration({ status: "AWAITING_MERGE_CONFIRMATION", approved_revision: REV }),
    );
    expect(merge[0]?.confirm).toBeDefined(); // merging asks once more
  });
});

describe("the root message", () => {
  it("shows name, project, status and owner, escaped", () => {
    const root = orchestrationRoot("fr", orchestration({ name: "<!here> & co", project_name: "demo" }));
    const text = all(root.blocks);
    expect(text).toContain("&lt;!here&gt; &amp; co");
    expect(text).not.toContain("<!here>");
    expect(text).toContain("demo");
    expect(text).toContain("<@UOWNER>");
    expect(text).toContain("Brouillon à relire");
    expect(root.text).toContain("Brouillon à relire");
    expect(root.blocks[0]?.block_id).toBe(BLOCKS.orchHead);
  });

  it("shows a long draft shortened, saying so and where the rest is, within Block Kit's limits", () => {
    const draft = `Spécification\n\n${"Une ligne de la demande <script> & co.\n".repeat(600)}`;
    const root = orchestrationRoot("fr", orchestration({ draft }));
    expectWithinBlockKit(root.blocks);
    const text = all(root.blocks);
    expect(text).toContain("…");
    expect(text).toContain("la version complète est dans le fil");
    expect(text).not.toContain("<script>");
    expect(JSON.stringify(root.blocks).length).toBeLessThan(L.MAX_MESSAGE_CHARS);
  });

  it("states the revision to approve or merge, and the last error escaped", () => {
    const review = all(
      orchestrationRoot("en", orchestration({ status: "USER_REVIEW", verified_revision: REV })).blocks,
    );
    expect(review).toContain(REV.slice(0, 10));
    const failed = all(
      orchestrationRoot(
        "en",
        orchestration({ status: "VERIFICATION_FAILED", last_error: "$ x\n(exit 1)\n<b>boom</b>" }),
      ).blocks,
    );
    expect(failed).toContain("&lt;b&gt;boom&lt;/b&gt;");
  });

  it("a stored failure note reads in the reader's language, whatever the engine's", () => {
    const last_error = failureNote("reason.orch_main_dirty", { branch: "main", detail: " M app.txt" });
    const en = all(
      orchestrationRoot("en", orchestration({ status: "AWAITING_MERGE_CONFIRMATION", last_error })).blocks,
    );
    const fr = all(
      orchestrationRoot("fr", orchestration({ status: "AWAITING_MERGE_CONFIRMATION", last_error })).blocks,
    );
    expect(en).toContain("has uncommitted changes, merge refused");
    expect(en).toContain("M app.txt");
    expect(fr).not.toContain("has uncommitted changes");
    expect(en).not.toContain("codexpi:");
  });
});

describe("thread steps", () => {
  const event = (kind: string, detail: Record<string, unknown> = {}) => ({
    kind,
    queue_id: null,
    detail,
    created_at: 1,
  });

  it("the current draft is posted whole, split across sections and messages, never cut", () => {
    const body = Array.from({ length: 400 }, (_, i) => `ligne ${i} ${"x".repeat(60)}`).join("\n");
    const o = orchestration({ draft: body });
    const messages = draftMessages("fr", o);
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) {
      expectWithinBlockKit(m.blocks);
      expect(JSON.stringify(m.blocks).length).toBeLessThan(L.MAX_MESSAGE_CHARS);
    }
    const joined = messages
      .flatMap((m) =>
        m.blocks.filter((b) => b.type === "section" && b.block_id !== `${BLOCKS.orchDraft}.head`),
      )
      .map((b) => (b.type === "section" && "text" in b ? b.text.text : ""))
      .join("");
    expect(joined.replace(/\s+/g, "")).toBe(body.replace(/\s+/g, ""));
    expect(all(messages.at(-1)!.blocks)).toContain(`partie ${messages.length} sur ${messages.length}`);
  });

  it("a rejected version gives the feedback, then the new version's draft; an old version only a line", () => {
    const o = orchestration({ draft_version: 2, draft: "v2 <text>" });
    const rejected = stepMessages(
      "fr",
      o,
      event("draft.rejected", { version: 1, feedback: "Plus de <détails>" }),
    );
    const text = rejected.map((m) => all(m.blocks)).join("\n");
    expect(text).toContain("Brouillon v1 rejeté : Plus de &lt;détails&gt;");
    expect(text).toContain("Brouillon v2 à relire");
    expect(text).toContain("v2 &lt;text&gt;");
    expect(stepMessages("fr", o, event("created", { draft_version: 1 })).map((m) => all(m.blocks))).toEqual([
      "📝 Brouillon v1 proposé.",
    ]);
  });

  it("every step people see has a line; internal ones none", () => {
    const o = orchestration({
      status: "MERGED",
      branch: "codexpi/orch-x",
      base_branch: "main",
      merged_revision: REV,
    });
    const kinds = [
      "draft.approved",
      "agent.started",
      "agent.finished",
      "agent.failed",
      "corrections.requested",
      "verification.interrupted",
      "revision.approved",
      "merge.confirmed",
      "merge.declined",
      "merged",
      "merge.failed",
      "cancel.requested",
      "cancelled",
      "prepare.failed",
    ];
    for (const kind of kinds) {
      const messages = stepMessages(
        "en",
        o,
        event(kind, {
          revision: REV,
          branch: "codexpi/orch-x",
          answer: "Done **well**",
          feedback: "f",
          error: "e",
          reason: "conflict",
          detail: "d",
        }),
      );
      expect(messages.length, kind).toBeGreaterThan(0);
      for (const m of messages) expectWithinBlockKit(m.blocks);
    }
    expect(stepMessages("en", o, event("step.resumed"))).toEqual([]);
    expect(all(stepMessages("en", o, event("merged", { revision: REV }))[0]!.blocks)).toContain(
      REV.slice(0, 10),
    );
    expect(all(stepMessages("en", o, event("revision.approved", { revision: REV }))[0]!.blocks)).toContain(
      "Merge confirmation asked",
    );
  });

  it("verification results give each test's argv, exit code and output tail, escaped", () => {
    const o = orchestration({
      status: "VERIFICATION_FAILED",
      verification: record({
        passed: false,
        results: [
          {
            command: "node -e 'process.exit(0)'",
            exitCode: 0,
            timedOut: false,
            passed: true,
            output: "fine",
            durationMs: 10,
          },
          {
            command: "npm test",
            exitCode: 1,
            timedOut: false,
            passed: false,
            output: "<!channel> expected ``` got & more",
            durationMs: 2000,
          },
          {
            command: "sleep 99",
            exitCode: null,
            timedOut: true,
            passed: false,
            output: "",
            durationMs: 9000,
          },
        ],
      }),
    });
    const messages = stepMessages("fr", o, event("verification.failed", { revision: REV, output: "…" }));
    const text = messages.map((m) => all(m.blocks)).join("\n");
    expect(text).toContain("Vérification échouée");
    expect(text).toContain("1 sur 3 réussis");
    expect(text).toContain("$ node -e 'process.exit(0)'");
    expect(text).toContain("code de sortie 1");
    expect(text).toContain("délai dépassé");
    expect(text).toContain("&lt;!channel&gt; expected");
    expect(text).toContain("&amp; more");
    expect(text).not.toContain("<!channel>");
    expect(text).not.toMatch(/expected ```/); // a fence in the output cannot close the code block
  });

  it("long outputs keep their end, say so, and many tests split across messages within limits", () => {
    const long = `${"début ".repeat(2000)}FIN-<x>`;
    const results = Array.from({ length: 20 }, (_, i) => ({
      command: `test-${i} ${"arg ".repeat(200)}`,
      exitCode: 1,
      timedOut: false,
      passed: false,
      output: long,
      durationMs: 5,
    }));
    const messages = verificationMessages("en", record({ passed: false, results }), "head");
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) {
      expectWithinBlockKit(m.blocks);
      expect(JSON.stringify(m.blocks).length).toBeLessThan(L.MAX_MESSAGE_CHARS);
    }
    const text = messages.map((m) => all(m.blocks)).join("\n");
    expect(text.match(/FIN-&lt;x&gt;/g)).toHaveLength(20);
    expect(text).toContain("End of the output");
    expect(text).toContain(`part ${messages.length} of ${messages.length}`);
  });

  it("a verification whose record was replaced since shows its line and stored output only", () => {
    const o = orchestration({ status: "USER_REVIEW", verification: record({ revision: "f".repeat(40) }) });
    const messages = stepMessages(
      "en",
      o,
      event("verification.failed", { revision: REV, output: "old <failure>" }),
    );
    const text = messages.map((m) => all(m.blocks)).join("\n");
    expect(text).toContain("old &lt;failure&gt;");
    expect(text).not.toContain("Acceptance tests:");
  });
});

describe("/codex orchestrations", () => {
  it("lists each orchestration with its status and buttons; empty says how to start one", () => {
    const list = [
      orchestration(),
      orchestration({ id: "o2", name: "Deux", status: "USER_REVIEW", verified_revision: REV }),
      orchestration({ id: "o3", status: "MERGED" }),
    ];
    const view = orchestrationsView("fr", list);
    expectWithinBlockKit(view.blocks);
    expect(buttons(view.blocks).map((b) => b.action_id)).toEqual([
      ACTIONS.orchDraftApprove,
      ACTIONS.orchDraftReject,
      ACTIONS.orchApprove,
      ACTIONS.orchCorrections,
    ]);
    expect(all(view.blocks)).toContain("Fusionnée");
    const empty = orchestrationsView("en", []);
    expect(all(empty.blocks)).toContain("/codex orchestrate");
  });

  it("counts what does not fit instead of dropping it", () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      orchestration({ id: `o${i}`, name: `Orchestration ${i}` }),
    );
    const view = orchestrationsView("en", many);
    expectWithinBlockKit(view.blocks);
    expect(all(view.blocks)).toMatch(/… and \d+ more/);
  });
});
