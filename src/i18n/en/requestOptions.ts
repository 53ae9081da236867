import type { requestOptions as fr } from "../fr/requestOptions.js";
import type { Message } from "../message.js";

/** English messages of a request's options (`model=`, `effort=`, `branch=`, issue 19). */
export const requestOptions = {
  "reason.request_option_empty": "the option `{option}=` needs a value",
  "reason.request_option_repeated": "the option `{option}=` is given twice",
  "reason.request_effort_invalid": "`effort={value}` does not exist: allowed values: {allowed}",
  "reason.request_model_none":
    "project {name} runs the configured model only, so `model={model}` is refused (an admin allows others: `/codex project set {name} --models a,b`)",
  "reason.request_model_not_allowed":
    "the model `{model}` is not allowed in {name}: allowed models: {allowed} (or no `model=` for the configured one)",
  "reason.request_branch_direct":
    "project {name} works in its checkout (direct mode): `branch=` has no meaning there, only a branch-mode project starts from a chosen branch",
  "reason.request_branch_missing":
    "there is no branch `{branch}` in the repository of {name}: branches: {allowed}",
  "reason.project_models_invalid":
    "`{model}` is not a model name (letters, digits, dots, dashes, underscores, colons and slashes)",
  "conversation.option.model": "model `{value}`",
  "conversation.option.effort": "effort `{value}`",
  "conversation.option.branch": "base `{value}`",
  "projects.models": "models: {models}",
  "project.models_set": "Requests in *{name}* may choose `model=` among: {models}.",
  "project.models_default": "Requests in *{name}* run the configured model only.",
  "cli.project.models_set": "{name}: allowed models: {models}",
  "cli.project.models_default": "the configured model only",
  "cli.project.models": "models {models}",
  "cli.error.models": "--models takes names separated by commas, or none",
} satisfies Record<keyof typeof fr, Message>;
