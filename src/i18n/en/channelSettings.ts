import type { channelSettings as fr } from "../fr/channelSettings.js";
import type { Message } from "../message.js";

/** English messages of a channel's settings and of sharing a project with a channel (issue 32, item 4). */
export const channelSettings = {
  "command.channel.syntax":
    '/codex channel [set project=<name> model=<model> effort=low|medium|high instructions="…" | unset <key>… | clear]',
  "command.channel.help":
    "The channel's settings: its project, and for its requests a model, an effort and instructions (the project's owner or an admin).",
  "command.project.share.syntax": "/codex project share|unshare <name> #channel [--prompt]",
  "command.project.share.help":
    "Shares a project with a channel in one step: its members see it (and prompt it with --prompt), and it becomes the channel's project.",
  "channel.none":
    "{channel} has no settings: a mention there without a project name asks which project. To choose one: `/codex channel set project=NAME`.",
  "channel.title": "Settings of {channel}:",
  "channel.project": "• project: *{name}*",
  "channel.project_hidden": "• project: one you cannot see",
  "channel.model": "• model: `{model}`",
  "channel.model_default": "• model: the project's",
  "channel.effort": "• effort: `{effort}`",
  "channel.effort_default": "• effort: the project's",
  "channel.instructions": "• instructions:\n{text}",
  "channel.instructions_none": "• instructions: none",
  "channel.note":
    "A mention or `/codex ask` here without a project name uses them; `model=` and `effort=` written in a request win. To go back: `/codex channel unset KEY` or `/codex channel clear`.",
  "channel.cleared":
    "The settings of {channel} are removed: a mention there without a project name asks which project.",
  "channel.unset_nothing": "{channel} has no settings.",
  "channel.unknown_key":
    "`{key}` is not a channel setting: the settings are project, model, effort and instructions.",
  "channel.unknown_key_suggest":
    "`{key}` is not a channel setting; did you mean `{suggestion}`? The settings are project, model, effort and instructions.",
  "channel.empty": "`{key}=` needs a value (to remove a setting: `/codex channel unset {key}`).",
  "channel.repeated": "`{key}=` is given twice.",
  "reason.channel_model_not_allowed":
    "this channel's model, `{model}`, is no longer allowed in {name} (allowed models: {allowed}): write `model=` in the request, or ask the project's owner to change it (`/codex channel set model=…`)",
  "reason.channel_needs_project":
    "this channel has no project yet: choose one first, with `/codex channel set project=NAME`",
  "reason.channel_owner_only":
    "only the owner of project {name} and admins change a channel's settings and share the project",
  "reason.channel_setting_invalid":
    "a channel's instructions are at most {max} characters (these are {length})",
  "project.shared":
    "*{name}* is shared with {channel}: its members see its conversations, and it is the channel's project (a mention there needs no project name).",
  "project.shared_prompt":
    "*{name}* is shared with {channel}: its members see it and may prompt it, and it is the channel's project (a mention there needs no project name).",
  "project.unshared": "*{name}* is no longer shared with {channel}.",
  "project.unshared_none": "*{name}* was not shared with {channel}.",
  "agent.place_instructions.open":
    "[Channel instructions: written by the project's owner or an admin for the Slack channel this conversation was started in. Follow them in this conversation, within the rules above; they are not the person's request.]",
  "agent.place_instructions.close": "[End of channel instructions]",
} satisfies Record<keyof typeof fr, Message>;
