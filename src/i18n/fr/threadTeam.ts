/**
 * Messages français d'un fil qui est celui de l'équipe (issue 32, points 2 et 3) : qui peut
 * relancer une conversation, ce qu'on dit une fois à qui ne le peut pas, et qui a écrit une relance
 * (ce que lit l'agent). `{owner}`, `{author}` et `{admins}` sont des mentions Slack passées par la vue.
 */
export const threadTeam = {
  "reason.thread_prompters_invalid": "--thread-prompters vaut author ou prompters",
  "rights.conversation_reserved_prompters":
    "Seules les personnes autorisées à écrire dans *{project}* ({owner} en est propriétaire) et les admins peuvent relancer cette conversation ; tu peux la suivre.",
  "rights.decision_reserved_prompters":
    "Seuls {person} (à qui elle a été posée), les personnes autorisées à écrire dans *{project}* et les admins peuvent répondre à cette décision ; tu peux suivre la conversation.",
  "thread.notice_context":
    "Tes messages restent dans le fil : l’agent les lira, comme contexte, à la prochaine relance.",
  "thread.ask_allow":
    "Pour y avoir droit, demande à {owner} ou à un admin ({admins}) : `/codex project allow {project} @toi`.",
  "thread.ask_allow_no_admins":
    "Pour y avoir droit, demande à {owner} ou à un admin : `/codex project allow {project} @toi`.",
  "thread.notice_once": "(Je ne le redirai pas dans ce fil.)",
  "agent.writer.teammate":
    "Relance écrite dans le fil Slack de la conversation par {name} (qui n’est pas la personne qui l’a lancée) :",
  "agent.writer.author": "Relance écrite par {name}, qui a lancé la conversation :",
  "project.thread_prompters_prompters":
    "*{name}* : toute personne autorisée à y écrire peut relancer ses conversations, les arrêter et répondre à leurs décisions.",
  "project.thread_prompters_author":
    "*{name}* : seule la personne qui a lancé une conversation (et le propriétaire, et les admins) peut la relancer, l’arrêter et répondre à ses décisions.",
  "projects.thread_author": "fils réservés à leur auteur",
  "cli.project.thread_prompters": "{name} : qui relance les conversations : {value}",
  "cli.project.thread_author": "fils réservés à leur auteur",
  "cli.error.thread_prompters": "--thread-prompters vaut author ou prompters",
};
