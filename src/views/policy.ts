import type { RuntimePolicy } from "../engine/api/model.js";
import { t, type Locale, type MessageKey } from "../i18n/index.js";
import { context } from "./blocks.js";
import { CALLBACKS } from "./ids.js";
import { inputValue, modal, textInput, type ModalView, type StateValues } from "./interactive.js";

/** The fields of the runtime policy form, in order. */
const POLICY_FIELDS = [
  "max_concurrent",
  "load_pause_percent",
  "memory_pause_percent",
  "background_start_hour",
  "background_end_hour",
] as const;
type PolicyField = (typeof POLICY_FIELDS)[number];

/** Block and action ids of the form's inputs. */
export const POLICY_INPUTS = Object.fromEntries(
  POLICY_FIELDS.map((f) => [f, { blockId: `policy.${f}`, actionId: `policy.${f}.value` }]),
) as Record<PolicyField, { blockId: string; actionId: string }>;

/** `/codex policy`: the global runtime policy, filled with its current values (admins submit it). */
export function policyModal(
  locale: Locale,
  policy: RuntimePolicy,
  opts: { channelId?: string } = {},
): ModalView {
  return modal({
    callbackId: CALLBACKS.policyEdit,
    metadata: JSON.stringify(opts.channelId ? { channelId: opts.channelId } : {}),
    title: t(locale, "policy_modal.title"),
    submit: t(locale, "policy_modal.submit"),
    close: t(locale, "policy_modal.close"),
    blocks: [
      context([t(locale, "policy_modal.intro")]),
      ...POLICY_FIELDS.map((f) =>
        textInput({
          ...POLICY_INPUTS[f],
          label: t(locale, `policy_modal.${f}.label` as MessageKey),
          hint: t(locale, `policy_modal.${f}.hint` as MessageKey),
          maxLength: 4,
          initialValue: String(policy[f]),
        }),
      ),
    ],
  });
}

/** The form's values as numbers (a non-number stays a string, for validation to refuse). */
export function readPolicy(values: StateValues): Record<PolicyField, number | string> {
  return Object.fromEntries(
    POLICY_FIELDS.map((f) => {
      const raw = inputValue(values, POLICY_INPUTS[f].blockId, POLICY_INPUTS[f].actionId).trim();
      return [f, /^\d+$/.test(raw) ? Number(raw) : raw];
    }),
  ) as Record<PolicyField, number | string>;
}

/** `response_action: "errors"` for the fields validation named (e.g. "max_concurrent"). */
export function policyErrors(locale: Locale, fields: string[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of POLICY_FIELDS)
    if (fields.includes(f))
      errors[POLICY_INPUTS[f].blockId] = t(locale, `policy_modal.${f}.error` as MessageKey);
  if (Object.keys(errors).length === 0)
    errors[POLICY_INPUTS.max_concurrent.blockId] = t(locale, "policy_modal.max_concurrent.error");
  return errors;
}
