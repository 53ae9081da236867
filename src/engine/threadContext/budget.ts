import type { QuotedMessage, ThreadContext } from "./model.js";

/** How much quoted context one prompt may carry (CODEXPI_THREAD_CONTEXT_MESSAGES / _CHARS). */
interface ContextBudget {
  messages: number;
  chars: number;
}

/** No single message takes more than this, so that one pasted log does not crowd out the rest. */
export const MESSAGE_CHARS = 4_000;

/** The message with its text cut to `max` characters (its whole length noted), or as it is. */
function cut(m: QuotedMessage, max: number): QuotedMessage {
  if (m.text.length <= max) return m;
  return { ...m, text: m.text.slice(0, Math.max(0, max)), fullLength: m.fullLength ?? m.text.length };
}

/**
 * The context within the budget. The thread's first message is kept when there is one (it
 * usually says what the thread is about), cut to half the characters at most; then the newest
 * messages, newest first, each cut to MESSAGE_CHARS, until the count or the characters run out.
 * The run of kept messages has no hole: the first older message that does not fit whole ends it
 * (only the newest may be cut to what is left). Everything else counts in `omitted`, which the
 * rendering says.
 */
export function fitToBudget(context: ThreadContext, budget: ContextBudget): ThreadContext {
  const all = context.messages;
  const perMessage = Math.min(MESSAGE_CHARS, budget.chars);
  let count = budget.messages;
  let chars = budget.chars;
  const head: QuotedMessage[] = [];
  let rest = all;
  if (count > 0 && all[0]?.root) {
    const root = cut(all[0], Math.min(perMessage, Math.floor(budget.chars / 2)));
    head.push(root);
    count -= 1;
    chars -= root.text.length;
    rest = all.slice(1);
  }
  const tail: QuotedMessage[] = [];
  for (let i = rest.length - 1; i >= 0 && count > 0 && chars > 0; i--) {
    let m = cut(rest[i] as QuotedMessage, perMessage);
    if (m.text.length > chars) {
      if (tail.length > 0) break;
      m = cut(m, chars);
    }
    tail.unshift(m);
    count -= 1;
    chars -= m.text.length;
  }
  const kept = [...head, ...tail];
  return { ...context, messages: kept, omitted: context.omitted + (all.length - kept.length) };
}
