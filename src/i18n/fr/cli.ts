import type { Message } from "../message.js";

/** The command line's texts (usage, help, answers to `answer`, `stop` and an interrupted `ask`). */
export const cli = {
  "cli.usage.title": "utilisation : codexpi COMMANDE [--help]",
  "cli.usage.help_hint": "codexpi COMMANDE --help décrit une commande.",
  "cli.usage.unknown": "commande inconnue : {name}",
  "cli.about.serve": "lance le bot, le répartiteur et le ticker",
  "cli.about.migrate": "met à jour le schéma de la base",
  "cli.about.doctor": "vérifie la configuration, la base, Codex, git, le bac à sable, Slack",
  "cli.about.project": "ajoute, liste, modifie ou retire un projet",
  "cli.about.ask":
    "interroge l’agent d’un projet (nouvelle conversation, ou --conversation pour en continuer une) ; --wait affiche la réponse, --stop-on-exit arrête l’agent sur Ctrl-C",
  "cli.about.answer":
    "affiche la dernière réponse d’une conversation (code 1 si elle a échoué, 3 tant qu’elle tourne)",
  "cli.about.stop": "arrête une conversation : son agent en cours et ses messages en attente",
  "cli.about.decide": "répond à une décision d’un agent",
  "cli.about.tick": "lance un tick maintenant",
  "cli.about.worker": "(interne) exécute un message en file",
  "cli.error.arguments": "{n} argument(s) attendu(s), {got} reçu(s)",
  "cli.error.invalid": "arguments invalides : {detail}",
  "cli.answer.running": "La conversation {id} est en cours. Pour la suivre : codexpi answer {id}",
  "cli.answer.none": "La conversation {id} n’a pas encore de réponse.",
  "cli.stop.done": "Conversation {id} arrêtée ({running} en cours, {queued} en attente annulés).",
  "cli.stop.nothing": "Conversation {id} : plus rien à arrêter.",
  "cli.ask.confirm_stop": "Arrêter l’agent ? [o/N] ",
  "cli.ask.left_running":
    "L’agent continue. Sa réponse : codexpi answer {id} (pour l’arrêter : codexpi stop {id})",
  "cli.error.project_command": "sous-commande de project inconnue : {name} (add, list, set ou remove)",
  "cli.error.role": "--role doit valoir {roles}",
  "cli.error.approvals": "--approvals doit valoir never ou on-request",
  "cli.project.updated": "projet {name} modifié : approbations {approvals}",
  "cli.error.owner": "--owner doit être un identifiant d’utilisateur Slack comme U123ABC",
  "cli.error.channel": "--channel doit être un identifiant de canal Slack comme C123ABC",
  "cli.error.attempt": "--attempt doit être un entier positif",
  "cli.error.decide_arguments":
    "un identifiant de décision et une option ou --text attendus, {n} argument(s) reçu(s)",
  "cli.project.added": "projet {name} ajouté ({id}) dans {path}",
  "cli.project.added_full_access": "projet {name} ajouté ({id}) dans {path} [accès complet]",
  "cli.project.removed": "projet {name} retiré ({path} lui-même est laissé tel quel)",
  "cli.project.none": "aucun projet pour l’instant : codexpi project add NOM CHEMIN",
  "cli.ask.paused": "en file : les nouveaux travaux sont en pause ({reasons})",
  "cli.ask.still_waiting": "toujours en attente",
  "cli.migrate.applied": "appliquées : {names}",
  "cli.migrate.up_to_date": "la base est à jour",
} satisfies Record<string, Message>;
