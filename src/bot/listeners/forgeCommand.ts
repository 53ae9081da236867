import { EngineError, type Actor } from "../../engine/api/model.js";
import { forgeSettingsView } from "../../views/forge.js";
import type { ForgeCommand } from "../forgeGrammar.js";
import type { BotContext } from "../context.js";
import type { Reply } from "./runs.js";

// `/codex project forge NAME [changes]` (issue 32, item 6): admins read and change a project's
// forge settings from Slack; the engine refuses anyone else (`admins_only`) and checks the values
// together (nothing changes when one does not fit). A token given here is not kept: it is said to
// be no longer secret, and where a token is stored (the host's command line).

type Command = Exclude<ForgeCommand, { kind: "usage" }>;

export async function projectForgeCommand(ctx: BotContext, cmd: Command, actor: Actor): Promise<Reply> {
  ctx.api.projects.assertAdmin(actor);
  if (cmd.tokenGiven) throw new EngineError("invalid", "forge_token_in_slack", { name: cmd.name });
  if (cmd.changes) await ctx.api.projects.setForge(actor, cmd.name, cmd.changes);
  const view = await ctx.api.projects.forgeView(actor, cmd.name);
  const message = forgeSettingsView(ctx.locale, view, { changed: cmd.changes !== null });
  return { text: message.text, blocks: message.blocks };
}
