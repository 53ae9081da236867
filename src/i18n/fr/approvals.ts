import { count, type Message } from "../message.js";

/** French messages of approvals: an agent asking to act outside its sandbox. */
export const approvals = {
  "reason.approval_not_found": "demande d’approbation introuvable",
  "reason.approval_answered": "cette demande d’approbation a déjà reçu une réponse",
  "reason.approval_expired": "cette demande d’approbation a expiré : rien n’a été exécuté",
  "reason.approval_abandoned":
    "l’agent n’attend plus cette réponse : rien n’a été exécuté ; réponds dans le fil pour continuer la conversation",
  "approval.pending_item": "🔐 {what} · *{project}*",
  "approval.see_card": "voir la demande",
  "approval.title_command": "🔐 L’agent demande à exécuter une commande hors de son bac à sable",
  "approval.title_file_change": "🔐 L’agent demande à modifier des fichiers hors de son bac à sable",
  "approval.project": "Projet *{project}*",
  "approval.cwd": "Dossier : {cwd}",
  "approval.reason": "Raison : {reason}",
  "approval.files": "Fichiers : {files}",
  "approval.diff_attached": "Le diff est long : il est joint en fichier dans ce fil.",
  "approval.diff_file_title": "Diff demandé par l’agent",
  "approval.expires": "Sans réponse, la demande expire {when}.",
  "approval.approve": "Approuver",
  "approval.approve_session": "Approuver pour la session",
  "approval.deny": "Refuser",
  "approval.stop": "Arrêter",
  "approval.status.approved": "✅ Approuvé par {user} {when}",
  "approval.status.approved_session": "✅ Approuvé pour la session par {user} {when}",
  "approval.status.denied": "🚫 Refusé par {user} {when} : l’agent en est informé",
  "approval.status.stopped": "⏹️ Arrêté par {user} {when} : l’agent s’arrête, rien n’a été exécuté",
  "approval.status.expired": "⌛ Expiré {when} sans réponse : rien n’a été exécuté",
  "approval.status.abandoned":
    "⚠️ L’agent a cessé d’attendre (son tour s’est terminé) : rien n’a été exécuté. Réponds dans le fil pour continuer la conversation.",
  "approval.fallback_open": "🔐 Approbation demandée : {what}",
  "approval.fallback_closed": "Approbation close : {what}",
  "approval.what_files": (p) => `modification de {n} fichier${count(p) > 1 ? "s" : ""}`,
  "approval.answered_ack": "✅ Réponse transmise à l’agent.",
  "notice.approval_waiting": "🔐 Une approbation t’attend dans *{project}* : {what} {link}",
} satisfies Record<string, Message>;
