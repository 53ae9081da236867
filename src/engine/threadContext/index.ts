// The public face of engine/threadContext: Slack context kept with a queued prompt and quoted
// into the prompt Codex is given (issue 19, item 1; docs/thread-context.md).

export { MESSAGE_CHARS, fitToBudget } from "./budget.js";
export { type QuotedMessage, type ThreadContext, readStoredContext, threadContextSchema } from "./model.js";
export { oneLine, promptWithContext, utc, withWriter } from "./render.js";
