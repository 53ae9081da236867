/**
 * Messages français de ce qu’une personne peut faire dans ce qu’elle voit (issue 20) : qui peut
 * relancer, répondre, et comment obtenir le droit. `{owner}`, `{author}` et `{person}` sont des
 * mentions Slack (ou un nom) passées par la vue.
 */
export const rights = {
  "reason.conversation_reserved":
    "seuls la personne qui a lancé cette conversation, le propriétaire de {project} et les admins peuvent y écrire",
  "reason.decision_reserved":
    "seuls la personne à qui cette décision est posée et les admins peuvent y répondre",
  "reason.approval_reserved":
    "seuls la personne qui a lancé cette conversation, le propriétaire du projet et les admins peuvent répondre à cette demande",
  "rights.approval_reserved":
    "Seuls {person} (qui a lancé cette conversation), le propriétaire du projet et les admins peuvent répondre à cette demande ; tu peux suivre la conversation.",
  "rights.conversation_reserved":
    "Seuls {author} (qui a lancé cette conversation), {owner} (propriétaire de *{project}*) et les admins peuvent écrire dans cette conversation ; tu peux la suivre.",
  "rights.conversation_reserved_owner":
    "Seuls {owner} (qui a lancé cette conversation et possède *{project}*) et les admins peuvent écrire dans cette conversation ; tu peux la suivre.",
  "rights.project_reserved":
    "Seuls {owner} (son propriétaire), les personnes qu’il autorise et les admins peuvent lancer l’agent de *{project}* ; tu peux suivre ses conversations.",
  "rights.ask_allow":
    "Pour y avoir droit, demande à {owner} ou à un admin : `/codex project allow {project} @toi`.",
  "rights.start_own": "Lance ta propre conversation : `/codex ask {project} …`.",
  "rights.decision_reserved":
    "Seuls {person} (à qui la question est posée) et les admins peuvent répondre à cette décision ; tu peux suivre la conversation.",
  "rights.owner_unknown": "son propriétaire",
  "rights.not_found_hint":
    "`/codex projects` liste les projets que tu peux utiliser ; un admin en ajoute avec `/codex project add`.",
  "rights.decisions_hint": "`/codex decisions` liste les décisions qui t’attendent.",
  "rights.cli_not_found_hint":
    "`codexpi project list` liste les projets ; `codexpi project add` en ajoute un.",
};
