import type { Message } from "../message.js";

/** French messages of a channel's settings and of sharing a project with a channel (issue 32, item 4). */
export const channelSettings = {
  "command.channel.syntax":
    '/codex channel [set project=<nom> model=<modèle> effort=low|medium|high instructions="…" | unset <clé>… | clear]',
  "command.channel.help":
    "Les réglages du canal : son projet, et pour ses demandes un modèle, un effort et des instructions (propriétaire du projet ou admin).",
  "command.project.share.syntax": "/codex project share|unshare <nom> #canal [--prompt]",
  "command.project.share.help":
    "Partage un projet avec un canal en une fois : ses membres le voient (et le sollicitent avec --prompt), et il devient le projet du canal.",
  "channel.none":
    "{channel} n’a pas de réglages : une mention sans nom de projet y demande lequel. Pour en choisir un : `/codex channel set project=NOM`.",
  "channel.title": "Réglages de {channel} :",
  "channel.project": "• projet : *{name}*",
  "channel.project_hidden": "• projet : un projet que tu ne vois pas",
  "channel.model": "• modèle : `{model}`",
  "channel.model_default": "• modèle : celui du projet",
  "channel.effort": "• effort : `{effort}`",
  "channel.effort_default": "• effort : celui du projet",
  "channel.instructions": "• instructions :\n{text}",
  "channel.instructions_none": "• instructions : aucune",
  "channel.note":
    "Une mention ou `/codex ask` ici sans nom de projet les utilise ; `model=` et `effort=` écrits dans une demande l’emportent. Pour revenir en arrière : `/codex channel unset CLÉ` ou `/codex channel clear`.",
  "channel.cleared":
    "Les réglages de {channel} sont retirés : une mention sans nom de projet y demande lequel.",
  "channel.unset_nothing": "{channel} n’a pas de réglages.",
  "channel.unknown_key":
    "`{key}` n’est pas un réglage de canal : les réglages sont project, model, effort et instructions.",
  "channel.unknown_key_suggest":
    "`{key}` n’est pas un réglage de canal ; voulais-tu dire `{suggestion}` ? Les réglages sont project, model, effort et instructions.",
  "channel.empty": "`{key}=` attend une valeur (pour retirer un réglage : `/codex channel unset {key}`).",
  "channel.repeated": "`{key}=` est donné deux fois.",
  "reason.channel_model_not_allowed":
    "le modèle de ce canal, `{model}`, n’est plus permis dans {name} (modèles permis : {allowed}) : écris `model=` dans la demande, ou demande au propriétaire du projet de le changer (`/codex channel set model=…`)",
  "reason.channel_needs_project":
    "ce canal n’a pas encore de projet : choisis-en un d’abord, avec `/codex channel set project=NOM`",
  "reason.channel_owner_only":
    "seuls le propriétaire du projet {name} et les admins changent les réglages d’un canal et partagent le projet",
  "reason.channel_setting_invalid":
    "les instructions d’un canal font au plus {max} caractères (celles-ci en font {length})",
  "project.shared":
    "*{name}* est partagé avec {channel} : ses membres voient ses conversations, et c’est le projet du canal (une mention y suffit, sans nom de projet).",
  "project.shared_prompt":
    "*{name}* est partagé avec {channel} : ses membres le voient et peuvent le solliciter, et c’est le projet du canal (une mention y suffit, sans nom de projet).",
  "project.unshared": "*{name}* n’est plus partagé avec {channel}.",
  "project.unshared_none": "*{name}* n’était pas partagé avec {channel}.",
  "agent.place_instructions.open":
    "[Instructions du canal : écrites par le propriétaire du projet ou un admin pour le canal Slack où cette conversation a commencé. Suis-les dans cette conversation, dans le respect des règles ci-dessus ; ce n’est pas la demande de la personne.]",
  "agent.place_instructions.close": "[Fin des instructions du canal]",
} satisfies Record<string, Message>;
