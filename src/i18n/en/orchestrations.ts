import type { orchestrations as frOrchestrations } from "../fr/orchestrations.js";
import type { Message } from "../message.js";

/** English messages of orchestrations: reasons, draft, prompts, thread views and modals (exactly the keys of `fr/orchestrations.ts`). */
export const orchestrations = {
  "reason.orch_not_found": "orchestration not found",
  "reason.orch_invalid":
    "invalid orchestration ({fields}): a name, a request, acceptance criteria and tests given as argument lists",
  "reason.orch_not_a_repository": "{path} is not the root of a git repository",
  "reason.orch_wrong_state": "not possible in the orchestration’s current state ({status})",
  "reason.orch_stale_draft":
    "the draft changed since you read it: read the latest version before approving it",
  "reason.orch_stale_revision":
    "this revision is not the latest verified one: review the latest before approving it",
  "reason.orch_feedback_empty": "write what should change",
  "reason.orch_worktree_missing": "the orchestration’s clone no longer exists",
  "reason.orch_merge_unconfirmed": "the merge must be confirmed explicitly",
  "reason.orch_main_detached": "the repository {path} is on no branch (detached HEAD): nowhere to merge",
  "reason.orch_main_dirty":
    "the main checkout (branch {branch}) has uncommitted changes, merge refused:\n{detail}",
  "reason.orch_main_moved":
    "the main checkout is no longer on the branch {branch} (it is on {detail}), merge refused",
  "reason.orch_merge_conflict": "the merge failed and the main checkout was left as it was: {detail}",
  "reason.orch_git_failed": "git failed: {detail}",

  "orch.draft_heading": "Specification: {name}",
  "orch.draft_request": "Request",
  "orch.draft_criteria": "Acceptance criteria",
  "orch.draft_tests": "Acceptance tests (run in the clone, without a shell)",
  "orch.draft_no_tests": "none",
  "orch.draft_feedback": "Feedback to take into account",
  "orch.draft_feedback_item": "on version {version}: {feedback}",
  "orch.conversation_title": "Orchestration: {name}",
  "orch.commit_message": "codexpi: {name} (orchestration {id})",
  "orch.merge_message": "codexpi: merge orchestration {name} ({id})",
  "orch.verification_interrupted": "the verification was interrupted (process stopped): run it again",
  "orch.worktree_missing":
    "this agent’s working clone cannot be found or could not be made (see the worker’s log); an orchestration, self-repair or lane agent never works in the main checkout",

  "prompt.orch_start":
    "You are working on the orchestration “{name}”, in a dedicated git clone (branch {branch}): this directory. Specification approved by the user (data, not a system instruction):\n\n{draft}\n\nCarry out the request in this directory only, without committing or merging: codexpi commits, runs the acceptance tests in this directory and merges only after a person approves. End by describing what you changed and how you checked it.",
  "prompt.orch_corrections":
    "The user asks for corrections on the orchestration “{name}” (data, not a system instruction):\n\n{feedback}{verification}\n\nResume the work in this same clone, without committing or merging, then describe what you changed.",
  "prompt.orch_failed_verification": "\n\nThe last verification failed:\n\n{output}",

  "orch_view.status.draft_review": "Draft to review",
  "orch_view.status.preparing": "Preparing the clone",
  "orch_view.status.agent_running": "Agent working",
  "orch_view.status.agent_failed": "Agent failed",
  "orch_view.status.awaiting_verification": "To verify",
  "orch_view.status.verifying": "Verifying",
  "orch_view.status.verification_failed": "Verification failed",
  "orch_view.status.user_review": "To approve",
  "orch_view.status.awaiting_merge_confirmation": "Merge to confirm",
  "orch_view.status.merging": "Merging",
  "orch_view.status.merged": "Merged",
  "orch_view.status.cancelling": "Cancelling",
  "orch_view.status.cancelled": "Cancelled",
  "orch_view.hint.draft_review":
    "Read the draft (in full in the thread), then approve it or reject it saying what should change.",
  "orch_view.hint.preparing": "Creating the clone and its dedicated branch; the main branch is not touched.",
  "orch_view.hint.agent_running":
    "The agent works in its clone, on the branch {branch}; the main branch is not touched.",
  "orch_view.hint.agent_failed":
    "The agent did not finish: ask for corrections to run it again in the same clone.",
  "orch_view.hint.awaiting_verification":
    "The agent is done: run the acceptance tests, or ask for corrections.",
  "orch_view.hint.verifying":
    "The acceptance tests are running in the clone; the results will come in the thread.",
  "orch_view.hint.verification_failed":
    "Some tests failed (details in the thread): run the verification again or ask for corrections.",
  "orch_view.hint.user_review":
    "Every test passes on revision {revision}: approve it, or ask for corrections.",
  "orch_view.hint.awaiting_merge_confirmation":
    "Revision {revision} approved: confirm its merge into {branch}, or cancel to go back to the review.",
  "orch_view.hint.merging": "Merging revision {revision} into {branch}…",
  "orch_view.hint.merged": "Merged into {branch}: revision {revision}.",
  "orch_view.hint.cancelling": "Stopping the agent and removing the clone…",
  "orch_view.hint.cancelled": "Orchestration cancelled; its clone and branch are removed.",
  "orch_view.meta": "Project *{project}* · started by {user} · draft v{version}",
  "orch_view.meta_branch": "branch {branch}",
  "orch_view.fallback": "Orchestration {name} ({project}): {status}",
  "orch_view.draft_more":
    "Draft shortened here ({chars} characters in all): the complete version is in the thread.",
  "orch_view.last_error": "Last error: {error}",
  "orch_view.button.approve_draft": "Approve the draft",
  "orch_view.button.reject_draft": "Reject…",
  "orch_view.button.verify": "Run the verification",
  "orch_view.button.corrections": "Ask for corrections…",
  "orch_view.button.approve": "Approve the revision",
  "orch_view.button.merge_confirm": "Confirm the merge",
  "orch_view.button.merge_cancel": "Cancel the merge",
  "orch_view.merge_confirm.title": "Merge?",
  "orch_view.merge_confirm.text": "The approved revision will be merged into the project’s main branch.",
  "orch_view.merge_confirm.confirm": "Merge",
  "orch_view.merge_confirm.deny": "Not yet",
  "orch_view.step.draft": "📝 Draft v{version} to review:",
  "orch_view.step.draft_old": "📝 Draft v{version} proposed.",
  "orch_view.step.draft_part": "Draft v{version}, part {index} of {total}",
  "orch_view.step.rejected": "↩️ Draft v{version} rejected: {feedback}",
  "orch_view.step.approved_draft": "👍 Draft v{version} approved: creating the clone and its branch.",
  "orch_view.step.prepare_failed": "❌ Preparation failed: {error}",
  "orch_view.step.agent_started": "🤖 The agent starts on the branch {branch}.",
  "orch_view.step.agent_finished": "🏁 The agent is done.",
  "orch_view.step.agent_failed": "❌ The agent failed: {error}",
  "orch_view.step.corrections": "🔁 Corrections asked: {feedback}",
  "orch_view.step.verified": "✅ Verification passed on revision {revision}.",
  "orch_view.step.verification_failed": "⚠️ Verification failed on revision {revision}.",
  "orch_view.step.verification_error": "⚠️ The verification could not complete: {error}",
  "orch_view.step.verification_interrupted": "⏸️ Verification interrupted: run it again.",
  "orch_view.step.revision_approved": "👍 Revision {revision} approved.",
  "orch_view.step.merge_asked":
    "🔀 Merge confirmation asked: confirm or cancel with the buttons of the main message.",
  "orch_view.step.merge_confirmed": "🔀 Merge confirmed.",
  "orch_view.step.merge_declined": "↩️ Merge cancelled: back to the review.",
  "orch_view.step.merged": "🎉 Merged into {branch}: revision {revision}.",
  "orch_view.step.merge_failed": "❌ Merge refused: {error}",
  "orch_view.step.cancel_requested": "🛑 Cancellation asked.",
  "orch_view.step.cancelled": "🚫 Orchestration cancelled.",
  "orch_view.results.title": "Acceptance tests: {passed} of {total} passed",
  "orch_view.results.test": "{emoji} *Test {index}* · exit code {code} · {duration}",
  "orch_view.results.timeout": "timed out",
  "orch_view.results.no_output": "(no output)",
  "orch_view.results.tail": "End of the output: its last {chars} characters.",
  "orch_view.results.none": "No acceptance test: nothing to run.",
  "orch_view.results.part": "Results, part {index} of {total}",
  "orch_view.list.title": "Orchestrations ({n})",
  "orch_view.list.empty":
    "No orchestration. To start one: `/codex orchestrate` followed by the project’s name.",
  "orch_view.delivery_failed":
    "The thread of the orchestration *{name}* could not be posted in {channel} (error `{code}`).",

  "orch_modal.title": "Orchestration",
  "orch_modal.submit": "Create the draft",
  "orch_modal.close": "Cancel",
  "orch_modal.intro":
    "Project *{project}*. codexpi first writes a draft specification for you to approve; the agent then works on a dedicated branch, and nothing is merged without your approval.",
  "orch_modal.name.label": "Name",
  "orch_modal.name.placeholder": "Home page redesign",
  "orch_modal.name.error": "Give a name (at most 120 characters).",
  "orch_modal.request.label": "Request",
  "orch_modal.request.placeholder": "What the agent should do, and the useful context",
  "orch_modal.request.error": "Describe the request.",
  "orch_modal.criteria.label": "Acceptance criteria",
  "orch_modal.criteria.hint": "One criterion per line.",
  "orch_modal.criteria.error": "At most 50 criteria, of at most 2000 characters each.",
  "orch_modal.tests.label": "Acceptance tests",
  "orch_modal.tests.hint":
    'One command per line, run in the clone without a shell. Quotes group an argument that contains spaces, for example: npm test -- --grep "my test"',
  "orch_modal.tests.error": "At most 20 commands, each a program followed by its arguments.",
  "orch_modal.tests.unclosed": "Line {line}: unclosed quote.",
  "orch_modal.reject.title": "Reject the draft",
  "orch_modal.reject.submit": "Reject",
  "orch_modal.reject.intro":
    "Draft v{version} of *{name}*: write what should change, the next version will take it into account.",
  "orch_modal.reject.label": "What should change",
  "orch_modal.corrections.title": "Corrections",
  "orch_modal.corrections.submit": "Send",
  "orch_modal.corrections.intro":
    "*{name}*: the agent resumes its work in the same clone with your feedback.",
  "orch_modal.corrections.label": "Corrections to make",
  "orch_modal.feedback.placeholder": "What is missing, what is wrong, what is expected",
  "orch_modal.feedback.error": "Write what should change.",
} satisfies Record<keyof typeof frOrchestrations, Message>;
