import { count, type Message } from "../message.js";

const s = (n: number) => (n > 1 ? "s" : "");

/** French messages of a lane's card (what changed in a conversation's branch) and its merge. */
export const laneCard = {
  "reason.lane_merge_not_allowed":
    "seuls le propriétaire de {name} et les admins fusionnent les branches de ses conversations",
  "reason.lane_publish_not_allowed":
    "seuls la personne qui a demandé et les admins poussent cette branche ou ouvrent sa pull request",
  "reason.lane_no_remote":
    "cette branche ne peut pas sortir : le checkout de {name} ne nomme aucun remote `{remote}`, et aucun dépôt de forge n’est nommé. Un admin ajoute le remote (`git remote add {remote} URL`), ou nomme le dépôt de la forge (`/codex project forge {name} --kind github|gitlab --repo PROPRIÉTAIRE/NOM`) et enregistre un jeton sur l’hôte",
  "reason.lane_ended": "cette branche n’est plus gardée : elle a été fusionnée ou abandonnée",
  "reason.lane_not_on_head":
    "cette lane n’est pas partie de la branche {branch} de la pull request : ses commits n’y sont pas poussés",
  "reason.lane_no_base":
    "cette branche est partie d’une copie détachée : il n’y a pas de branche où la fusionner",
  "reason.lane_checkout_dirty":
    "la copie de {name} a des modifications non commitées : commitez-les ou mettez-les de côté, puis fusionnez à nouveau dans `{base}`",
  "reason.lane_checkout_moved":
    "la copie de {name} a une autre branche extraite : extrayez `{base}`, puis fusionnez à nouveau",
  "reason.lane_unsealed":
    "la configuration git de la copie de travail de cette branche a changé depuis que codexpi l’a créée : rien n’en est fusionné, poussé ni lancé ; abandonnez-la",
  "lane.pr_body":
    "{request}\n\n---\n\n**Ce qu’a fait l’agent**\n\n{summary}\n\n---\n\nDemandé par {requester} dans Slack : {thread}\n\n_Ouverte par codexpi._",
  "lane.reply.conflict":
    "La fusion s’est arrêtée sur un conflit dans {n} fichier(s) : la carte les nomme et propose de demander à l’agent.",
  "lane.reply.ask_asked":
    "L’agent est chargé de fusionner la base dans sa branche et de résoudre les conflits : sa réponse arrive dans ce fil.",
  "lane.reply.ask_merged": "La base a fusionné dans la branche sans conflit : fusionnez-la à nouveau.",
  "lane.reply.ask_up_to_date": "La branche contient déjà sa base : rien à fusionner.",
  "lane.merge_message": "Fusion de {branch} dans {base} (codexpi)",
  "prompt.lane_merge_base":
    "La branche `{base}` du projet a avancé et ne fusionne plus proprement avec ta branche. codexpi a commencé à fusionner `{base}` (`{ref}`) dans ta branche, ici même : les fichiers ci-dessous contiennent des marqueurs de conflit.\n\nRésous chaque conflit en gardant l’intention des deux côtés, retire tous les marqueurs de conflit, puis vérifie que le projet compile et que ses tests passent. Ne fais pas de commit et n’abandonne pas la fusion (`git merge --abort`) : codexpi enregistre le commit de fusion à la fin de ton tour.\n\nFichiers en conflit :\n{files}",
  "prompt.lane_merge_base_no_files":
    "(aucun fichier en conflit : vérifie seulement que le projet compile et que ses tests passent)",
  "lane.card.title": "🌿 Branche {branch} → {base}",
  "lane.card.summary": (p) =>
    `{commits} commit${s(count(p, "commits"))} · {files} fichier${s(count(p, "files"))} modifié${s(count(p, "files"))} · +{added} −{removed}`,
  "lane.card.no_change": "Aucun changement dans cette branche pour l’instant.",
  "lane.card.commits": "*Commits*",
  "lane.card.files": "*Fichiers*",
  "lane.card.binary": "binaire",
  "lane.card.diff_attached": (p) =>
    `Le diff ({lines} ligne${s(count(p, "lines"))}) est long : il est joint en fichier dans ce fil.`,
  "lane.card.diff_cut": "Le fichier joint est coupé à {shown} sur {total}.",
  "lane.card.diff_cut_line": "[… diff coupé ici : {shown} sur {total}]",
  "lane.card.diff_file_title": "Diff de {branch}",
  "lane.card.merge": "Fusionner dans {base}",
  "lane.card.push": "Pousser la branche",
  "lane.card.pr": "Ouvrir une pull request",
  "lane.card.merge_title": "Fusionner cette branche ?",
  "lane.card.merge_text": "Fusionner `{branch}` dans `{base}` dans la copie du projet ?",
  "lane.card.merge_yes": "Fusionner",
  "lane.card.discard": "Abandonner",
  "lane.card.discard_title": "Abandonner cette branche ?",
  "lane.card.discard_text":
    "Le clone de travail de {branch} sera supprimé et ses changements non fusionnés ni poussés seront perdus.",
  "lane.card.discard_yes": "Abandonner",
  "lane.card.discard_no": "Garder",
  "lane.card.conflict":
    "⚠️ La fusion dans {base} est en conflit ; le projet est resté tel quel. Fichiers : {files}",
  "lane.card.ask_merge": "Demander à l’agent de fusionner {base}",
  "lane.card.pushed": "⬆️ Branche poussée sur {remote}.",
  "lane.card.pr_line": "🔀 Pull request {link} · {state}",
  "lane.card.pr_state.open": "ouverte",
  "lane.card.pr_state.draft": "brouillon",
  "lane.card.pr_state.merged": "fusionnée",
  "lane.card.pr_state.closed": "fermée",
  "lane.card.merged": "✅ Fusionné dans {base} par {user} : {how}",
  "lane.card.fast_forwarded":
    "✅ Avance rapide (fast-forward) de {base} jusqu’à {revision} par {user} (sans commit de fusion)",
  "lane.card.how.unknown": "{revision}",
  "lane.card.how.merge-commit": "commit de fusion {revision}",
  "lane.card.how.already-merged": "déjà fusionné ({revision})",
  "lane.card.discarded": "🗑️ Abandonné par {user} : la branche de travail est supprimée.",
  "lane.card.hint.remote":
    "ℹ️ Ni « Pousser la branche » ni « Ouvrir une pull request » : le checkout de {name} ne nomme aucun remote {remote}. Admins : ajoutez-le (`git remote add {remoteName} URL`), ou nommez le dépôt de la forge (`/codex project forge {project} --kind github|gitlab --repo PROPRIÉTAIRE/NOM`) et enregistrez un jeton sur l’hôte.",
  "lane.card.hint.forge":
    "ℹ️ Pas de « Ouvrir une pull request » : le projet {name} n’a pas de forge. Admins : `/codex project forge {project} --kind github|gitlab --repo PROPRIÉTAIRE/NOM`.",
  "lane.card.hint.token":
    "ℹ️ Pas de « Ouvrir une pull request » : aucun jeton de forge n’est enregistré pour {name}. Les admins l’enregistrent sur l’hôte, jamais dans Slack : `codexpi project credential {project} --forge-token -`.",
  "lane.card.hint.token_push":
    "ℹ️ Ni « Pousser la branche » ni « Ouvrir une pull request » : le checkout de {name} ne nomme aucun remote, et pousser vers le dépôt de la forge demande un jeton. Les admins l’enregistrent sur l’hôte, jamais dans Slack : `codexpi project credential {project} --forge-token -`.",
  "lane.card.fallback": "Ce qui a changé dans {branch}",
} satisfies Record<string, Message>;
