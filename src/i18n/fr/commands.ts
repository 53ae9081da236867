import { count, type Message } from "../message.js";

const s = (n: number): string => (n > 1 ? "s" : "");

/** French messages of `/codex` help and syntax, projects, status, policy and the App Home. */
export const commands = {
  "help.title": "Commandes /codex",
  "help.intro":
    "Tu peux aussi mentionner @codexpi suivi du projet et de la consigne, ou m’écrire en message privé.",
  "help.admin_badge": "admin",
  "help.admin_note": "Les commandes marquées 🔒 sont réservées aux admins.",

  "command.general.syntax":
    "/codex help|ask|projects|project|status|decisions|incidents|specialists|specialist|notify|run|policy|orchestrate|orchestrations|usage|budget …",
  "command.general.help": "Sous-commandes de /codex ; `/codex help` les décrit.",
  "command.help.syntax": "/codex help",
  "command.help.help": "Affiche cette aide.",
  "command.ask.syntax":
    "/codex ask <projet> [model=<modèle>] [effort=low|medium|high] [branch=<branche>] <consigne>",
  "command.ask.help": "Lance un agent Codex dans un projet ; le fil du message devient la conversation.",
  "command.projects.syntax": "/codex projects",
  "command.projects.help": "Liste les projets que tu peux utiliser.",
  "command.project.syntax":
    "/codex project add|remove|set|allow|disallow|allow-host|deny-host|share|unshare|forge <nom> …",
  "command.project.help": "Administre les projets.",
  "command.project.add.syntax":
    "/codex project add <nom> <chemin> [--owner @qqn] [--full-access] [--merge-confirmation] [--channel #canal] [--role project|master|self]",
  "command.project.add.help": "Enregistre un dépôt git de la machine comme projet.",
  "command.project.remove.syntax": "/codex project remove <nom>",
  "command.project.remove.help": "Retire un projet (ses fichiers restent en place).",
  "command.project.set.syntax":
    "/codex project set <nom> [--owner @qqn|none] [--channel #canal|none] [--full-access on|off] [--merge-confirmation on|off] [--role project|master|self] [--approvals never|on-request] [--host <host>|none] [--path <chemin>] [--max-concurrent <n>|none] [--default-for #canal|none] [--visible channel|private] [--steer on|off] [--thread-prompters author|prompters] [--workspace direct|branch] [--prompters-merge on|off] [--memory-writers owners|prompters] [--models a,b|none] [--network off|allowlist|open] [--forge-channel #channel|none] [--forge-triggers comments,issues,ci|none]",
  "command.project.set.help":
    "Modifie les réglages d’un projet ; son propriétaire peut aussi utiliser `--default-for` (projet par défaut du canal ; `none` : d’aucun canal) et `--visible channel` (les membres de son canal peuvent lire et suivre ses conversations, pas lui confier de travail ; `private` par défaut).",
  "command.project.allow.syntax": "/codex project allow|disallow <nom> @qqn",
  "command.project.allow.help":
    "Le propriétaire du projet (ou un admin) permet à quelqu’un d’autre de lui confier du travail, ou le lui retire.",
  "command.status.syntax": "/codex status",
  "command.status.help": "File d’attente, agents en cours, charge de la machine et pauses.",
  "command.decisions.syntax": "/codex decisions",
  "command.decisions.help": "Décisions et approbations qui attendent ta réponse.",
  "command.incidents.syntax": "/codex incidents",
  "command.incidents.help": "Incidents ouverts et réparations en cours.",
  "command.specialists.syntax": "/codex specialists",
  "command.specialists.help": "Agents spécialistes et leurs compétences.",
  "command.specialist.add.syntax": "/codex specialist add",
  "command.specialist.add.help": "Crée un agent spécialiste (formulaire).",
  "command.run.syntax": "/codex run",
  "command.run.help": "Affiche le run autonome en cours.",
  "command.run.start.syntax": "/codex run start",
  "command.run.start.help": "Lance un run autonome à partir d’un plan JSON (formulaire).",
  "command.run.resume.syntax": "/codex run resume [--revise]",
  "command.run.resume.help": "Reprend le run bloqué, avec un plan révisé si tu ajoutes --revise.",
  "command.run.cancel.syntax": "/codex run cancel",
  "command.run.cancel.help": "Arrête le run en cours (son propriétaire ou un admin).",
  "command.policy.syntax": "/codex policy",
  "command.policy.help":
    "Règle la politique d’exécution : agents simultanés, seuils de pause, fenêtre de nuit (formulaire).",
  "command.notify.syntax": "/codex notify [<task_completion|decisions|incidents> <on|off>]",
  "command.notify.help": "Choisis ce que tu reçois en message privé.",
  "command.orchestrate.syntax": "/codex orchestrate <projet>",
  "command.orchestrate.help":
    "Prépare une modification encadrée : spec, branche dédiée, tests, fusion (formulaire).",
  "command.orchestrations.syntax": "/codex orchestrations",
  "command.orchestrations.help": "Liste les orchestrations et leur état.",

  "project.added": "Projet *{name}* enregistré : `{path}`.",
  "project.removed": "Projet *{name}* retiré (ses fichiers restent en place).",
  "project.updated": "Projet *{name}* mis à jour.",
  "project.host_set": "Le projet *{name}* tourne désormais sur l’hôte de travail `{host}`.",
  "project.host_none": "Le projet *{name}* tourne désormais sur la machine du bot.",
  "project.default_set":
    "Le projet *{name}* est désormais le projet par défaut de {channel} : mentionne @codexpi sans nom de projet.",
  "project.channel_invite_first":
    "{channel} est privé : invite d’abord {bot} dans ce canal (`/invite {bot}`), puis règle à nouveau le canal. Rien n’a été modifié.",
  "project.channel_join_failed":
    "codexpi n’a pas pu rejoindre {channel} (Slack a répondu `{code}`). Rien n’a été modifié.",
  "project.visible_channel":
    "Le projet *{name}* est désormais visible des membres de {channel} : ils peuvent lire et suivre ses conversations ; lui confier du travail reste à toi, aux admins et aux personnes que tu autorises (`/codex project allow {name} @qqn`).",
  "project.visible_channel_none":
    "Le projet *{name}* est visible des membres de son canal, mais il n’a pas encore de canal (`/codex project set {name} --channel #canal`, admins).",
  "project.visible_private":
    "Le projet *{name}* est de nouveau privé : seuls son propriétaire et les admins le voient.",
  "project.steer_on":
    "Projet *{name}* : une réponse écrite dans un fil pendant que son agent travaille est désormais transmise au tour en cours (runner app-server) ; sinon, elle attend le tour suivant.",
  "project.steer_off":
    "Projet *{name}* : une réponse écrite pendant que son agent travaille attend de nouveau le tour suivant.",
  "project.workspace_direct":
    "Le projet *{name}* travaille directement dans sa copie de travail : un agent à la fois, les autres attendent leur tour.",
  "project.workspace_branch":
    "Le projet *{name}* travaille en voies : chaque conversation dans un clone à elle, sur une branche à elle.",
  "project.allowed": "{user} peut désormais confier du travail au projet *{name}*.",
  "project.disallowed": "{user} ne peut plus confier de travail au projet *{name}*.",
  "project.default_cleared": "Le projet *{name}* n’est plus le projet par défaut de {channels}.",
  "project.default_none": "Le projet *{name}* n’était le projet par défaut d’aucun canal.",

  "projects.title": "Projets ({n})",
  "projects.empty": "Aucun projet visible. Un admin peut en ajouter avec `/codex project add`.",
  "projects.owner": "propriétaire {owner}",
  "projects.channel": "canal {channel}",
  "projects.visible_channel": "visible des membres du canal",
  "projects.full_access": "accès complet",
  "projects.sandboxed": "bac à sable",
  "projects.merge_confirmation": "fusion sur confirmation",
  "projects.approvals_on_request": "approbations sur demande",
  "projects.steer": "les réponses orientent le tour en cours",
  "projects.workspace.direct": "direct : un agent à la fois dans sa copie de travail",
  "projects.workspace.branch": "branche : une voie par conversation",
  "projects.role.project": "projet",
  "projects.role.master": "agent maître",
  "projects.role.self": "auto-réparation",

  "status.title": "État de codexpi",
  "status.queued": (p) => `*En file* : {n} demande${s(count(p))}`,
  "status.running": "*En cours* : {n} sur {max}",
  "status.load": "*Charge* : {value} % (pause au-dessus de {limit} %)",
  "status.memory": "*Mémoire* : {value} % (pause au-dessus de {limit} %)",
  "status.window_always": "*Travail de fond* : à toute heure",
  "status.window": "*Travail de fond* : de {start} h à {end} h",
  "status.paused": "⏸️ Nouveaux travaux en pause : {reasons}.",
  "status.running_title": "Agents en cours",
  "status.none_running": "Aucun agent en cours.",
  "status.since": "depuis {duration}",
  "status.open": "ouvrir",

  "policy_modal.title": "Politique d’exécution",
  "policy_modal.submit": "Enregistrer",
  "policy_modal.close": "Annuler",
  "policy_modal.intro":
    "S’applique à tous les projets ; un projet peut avoir sa propre limite (`/codex project set`).",
  "policy_modal.max_concurrent.label": "Agents simultanés au plus",
  "policy_modal.max_concurrent.hint": "De 1 à 64.",
  "policy_modal.max_concurrent.error": "Un entier de 1 à 64.",
  "policy_modal.load_pause_percent.label": "Pause au-dessus de cette charge (%)",
  "policy_modal.load_pause_percent.hint":
    "Charge moyenne sur une minute rapportée au nombre de cœurs ; 100 = tous occupés.",
  "policy_modal.load_pause_percent.error": "Un entier de 1 à 1000.",
  "policy_modal.memory_pause_percent.label": "Pause au-dessus de cette mémoire (%)",
  "policy_modal.memory_pause_percent.hint": "Mémoire utilisée, cache exclu.",
  "policy_modal.memory_pause_percent.error": "Un entier de 1 à 100.",
  "policy_modal.background_start_hour.label": "Travail de fond : début (heure)",
  "policy_modal.background_start_hour.hint": "Heure locale, de 0 à 23 ; début égal à fin = à toute heure.",
  "policy_modal.background_start_hour.error": "Une heure de 0 à 23.",
  "policy_modal.background_end_hour.label": "Travail de fond : fin (heure)",
  "policy_modal.background_end_hour.hint": "Exclue ; peut passer minuit (22 puis 7).",
  "policy_modal.background_end_hour.error": "Une heure de 0 à 23.",

  "policy.saved": "Politique d’exécution enregistrée.",

  "home.title": "codexpi",
  "home.run.title": "Run autonome en cours",
  "home.run.line": "*{title}* · {status} · {stage}",
  "home.decisions.title": "Décisions en attente ({n})",
  "home.decisions.empty": "Aucune décision en attente.",
  "home.decisions.title_with_approvals": "Décisions et approbations en attente ({n})",
  "home.incidents.title": "Incidents ({n})",
  "home.incidents.empty": "Aucun incident ouvert.",
  "home.incidents.retry": "Relancer",
  "home.policies.title": "Politique d’exécution",
  "home.policies.global": (p) =>
    `*Global* : {max} agent${s(count(p, "max"))} simultané${s(count(p, "max"))} · pause si charge au-dessus de {load} % ou mémoire au-dessus de {memory} %`,
  "home.policies.project": (p) => `{name} : {n} agent${s(count(p))} max`,
  "home.policies.no_projects": "Aucun projet enregistré.",
  "home.specialists.title": "Spécialistes ({n})",
  "home.specialists.empty": "Aucun spécialiste. Crée-en un avec `/codex specialist add`.",
  "home.specialists.rebuild": "Reconstruire",
  "home.specialists.no_capabilities": "aucune compétence déclarée",
} satisfies Record<string, Message>;
