import { count, type Message } from "../message.js";

const s = (n: number): string => (n > 1 ? "s" : "");

/** French messages of common words, errors, the worker, failures, conversations and answers. */
export const core = {
  "common.yes": "oui",
  "common.no": "non",
  "common.more": (p) => `… et {n} autre${s(count(p))}`,
  "common.shared": "partagé",
  "common.labelled": "{label} : {value}",
  "ask.choose_project": "Dans quel projet ? Choisis-en un, ta demande y sera lancée :",
  "ask.no_projects": "Tu n’as accès à aucun projet. Un admin peut en ajouter avec `/codex project add`.",
  "ask.prompt_too_long": "Demande trop longue pour la proposer ici : commence-la par le nom du projet.",
  "ask.choice_not_yours": "Seule la personne qui a demandé peut choisir le projet de sa demande.",
  "ask.chosen": "Lancé dans *{project}*.",

  "error.not_found": "Introuvable : {detail}",
  "error.conflict": "Impossible pour l’instant : {detail}",
  "error.invalid": "Demande invalide : {detail}",
  "error.forbidden": "Action non autorisée : {detail}",
  "error.unavailable": "Service momentanément indisponible : {detail}. Réessaie dans un instant.",
  "error.internal": "Une erreur inattendue s’est produite ; elle est consignée dans les journaux du bot.",

  "reason.project_name_invalid":
    "nom de projet invalide : {name} (lettres, chiffres, espaces, . _ ( ) -, 80 caractères au plus)",
  "reason.project_path_invalid": "le chemin {path} n’est pas un dossier de cette machine",
  "reason.project_holds_data":
    "le chemin {path} contient le dossier de données de codexpi ({other}) : ses agents pourraient réécrire la base ; choisis un dossier en dehors",
  "reason.project_holds_install":
    "le chemin {path} contient l’installation de codexpi en service ({other}) : ses agents pourraient réécrire le code que codexpi exécute ; enregistre une copie séparée",
  "reason.project_overlaps":
    "le chemin {path} chevauche le projet {name} ({other}) : les projets ne se chevauchent jamais (l’un dans l’autre, ou le même dossier), sinon les agents de l’un pourraient lire et écrire les fichiers et les hooks git de l’autre ; choisis un dossier séparé",
  "reason.project_exists": "un projet nommé {name} existe déjà",
  "reason.role_taken": "le rôle {role} est déjà tenu par le projet {name}",
  "reason.project_clash":
    "le projet {name} entre en conflit avec un autre projet (nom ou rôle {role}) : réessaie",
  "reason.project_not_found": (p) =>
    p.suggestion === undefined
      ? "projet introuvable : {name}"
      : "projet introuvable : {name} (voulais-tu dire {suggestion} ?)",
  "reason.project_read_only":
    "tu peux suivre le projet {name}, pas lui confier de travail : demande à son propriétaire (`/codex project allow {name} @toi`)",
  "reason.admins_only": "réservé aux admins",
  "reason.project_busy": "le projet {name} a encore du travail en file ou en cours",
  "reason.project_running": "le projet {name} a un agent en cours : déplacez-le quand il aura fini",
  "reason.host_not_found":
    "aucun hôte de travail nommé {name} ne s’est enregistré (lancez d’abord codexpi host --name {name})",
  "reason.workspace_mode_invalid": "le mode d’espace de travail est branch ou direct (pas {mode})",
  "reason.workspace_not_a_repository":
    "le projet {name} ne peut pas travailler en mode branch : {path} n’est pas la racine d’un dépôt git (la voie de chaque conversation en serait un clone) ; il reste direct",
  "reason.lane_not_found":
    "cette conversation n’a pas de voie (son projet travaille en mode direct, ou son agent n’a pas commencé)",
  "reason.lane_busy":
    "la conversation {name} a un agent au travail ou en attente dans sa voie : attendez sa réponse ou arrêtez-le, puis réessayez",
  "lanes.commit_message": "codexpi : {title}",
  "reason.conversation_not_found": "conversation introuvable",
  "reason.conversation_other_project": "la conversation {name} appartient à un autre projet",
  "reason.prompt_empty": "la consigne est vide",
  "reason.not_allowed_to_drive":
    "seuls l’auteur de la conversation, le propriétaire du projet et les admins peuvent faire cela",
  "reason.policy_invalid": "politique d’exécution invalide ({fields})",
  "reason.limit_invalid": "la limite doit être un entier de 1 à 64",

  "worker.interrupted": "Le worker s’est arrêté avant la fin de la tâche (processus interrompu).",
  "worker.interrupted_detail":
    "Le worker s’est arrêté avant la fin de la tâche (processus interrompu) : {detail}",
  "worker.watchdog_idle": "Codex n’a rien émis pendant {s} s : tour arrêté par le chien de garde.",
  "worker.watchdog_turn": "Le tour a dépassé {s} s : arrêté par le chien de garde.",
  "worker.watchdog_retrying":
    "Le modèle a échoué pendant {s} s (Codex ne faisait que réessayer) : tour arrêté par le chien de garde. Dernière erreur : {detail}",
  "worker.cancelled": "Arrêté à la demande.",
  "worker.cancelled_queued": "Annulé avant son démarrage.",
  "worker.thread_busy": "Cette conversation Codex est déjà utilisée par un autre tour.",
  "worker.codex_missing": "Codex introuvable : installe @openai/codex ou définis CODEX_BIN.",
  "worker.jail_missing":
    "La prison des agents est indisponible : installe bubblewrap (`apt install bubblewrap`) ou lance `codexpi doctor`.",
  "worker.model_credential":
    "Les identifiants du modèle n’ont pas pu être lus sur l’hôte, l’agent n’a donc pas démarré : {detail}",
  "worker.spawn_failed": "L’agent n’a pas pu démarrer : {detail}",

  "failure.interrupted": "Le processus de l’agent s’est arrêté en cours de route (redémarrage ou plantage).",
  "failure.watchdog": "L’agent a dépassé le temps autorisé et a été arrêté.",
  "failure.codex_failed": "Codex a signalé un échec pendant son tour.",
  "failure.cancelled": "La demande a été annulée avant la fin.",
  "failure.spawn_failed": "L’agent n’a pas pu être lancé sur la machine.",
  "failure.thread_busy": "La conversation avait déjà un tour en cours ; réessaie quand il sera terminé.",

  "pause.concurrency": "nombre maximal d’agents simultanés atteint",
  "pause.load": "machine trop chargée",
  "pause.memory": "mémoire presque pleine",

  "notice.not_in_channel": (p) =>
    `Le bot n’est pas dans ${p.channel === undefined ? "ce canal" : "le canal {channel}"} (not_in_channel) : invite-le avec \`/invite @codexpi\`.`,
  "notice.delivery_failed":
    "Impossible de publier dans Slack le suivi de ta conversation dans *{project}* (erreur `{code}`).",
  "notice.admin_only": "Seuls les admins peuvent utiliser `{command}`.",
  "notice.project_not_found": "Projet introuvable : {name}",
  "notice.reply_unmatched":
    "Ta réponse n’a pu être rattachée à aucune conversation codexpi, elle n’a donc pas été transmise à l’agent : renvoie-la dans le fil de la conversation.",
  "notice.working": "Je m’en occupe…",
  "notice.decision_waiting": "Une décision t’attend dans *{project}* : {title} {link}",
  "notice.task_done": "Ta demande dans *{project}* est terminée. {link}",
  "notice.task_failed": "Ta demande dans *{project}* a échoué. {link}",
  "notice.see_thread": "Voir le fil",
  "notice.stopped_by": "Arrêté par {user}",
  "notice.stop_summary": "Arrêté par {user} : {what}.",
  "notice.stop_running": "le tour en cours",
  "notice.stop_queued": (p) => `{n} relance${s(count(p))} en attente annulée${s(count(p))}`,
  "notice.stop_decisions": (p) => `{n} décision${s(count(p))} ouverte${s(count(p))} annulée${s(count(p))}`,
  "notice.failed": "L’agent a échoué : {error}",
  "notice.queued": "Ta consigne est en file d’attente (position {n}).",
  "notice.unknown_command": "Commande inconnue : `{command}`. Tape `/codex help` pour la liste.",
  "notice.unknown_command_suggest":
    "Commande inconnue : `{command}`. Voulais-tu dire `/codex {suggestion}` ? Tape `/codex help` pour la liste.",
  "notice.usage": "Usage : {syntax}",
  "notice.nothing_to_stop": "Rien à arrêter : l’agent a déjà fini.",

  "conversation.asked": "{user} dans *{project}* :",
  "conversation.state.queued": "En file d’attente",
  "conversation.state.queued_at": "En file d’attente (position {n})",
  "conversation.state.running": "En cours…",
  "conversation.state.running_activity": "En cours : {activity}",
  "conversation.state.done": "Terminé",
  "conversation.state.waiting_decision": "En attente de ta réponse",
  "conversation.state.waiting_question": "voir la question",
  "conversation.state.waiting_approval": "En attente d’approbation",
  "conversation.state.waiting_request": "voir la demande",
  "conversation.state.done_in": "Terminé en {duration}",
  "conversation.state.failed": "Échec",
  "conversation.state.failed_with": "Échec : {error}",
  "conversation.state.cancelled": "Annulé",
  "conversation.state.running_for": "En cours depuis {duration}",
  "conversation.state.done_in_tokens": "Terminé en {duration} · {tokens} jetons",
  "progress.kind.starting": "démarre",
  "progress.kind.command": "exécute une commande",
  "progress.kind.editing": "modifie des fichiers",
  "progress.kind.reading": "lit des fichiers",
  "progress.kind.searching": "cherche",
  "progress.kind.thinking": "réfléchit",
  "progress.kind.planning": "planifie",
  "progress.kind.writing": "rédige",
  "progress.plan": "Plan :",
  "progress.with_detail": "{kind} : {detail}",
  "stream.plan_title": "Plan",
  "interim.label": "Message intermédiaire",
  "conversation.stop": "Arrêter",
  "conversation.stop_confirm.title": "Arrêter l’agent ?",
  "conversation.stop_confirm.text":
    "Le tour en cours sera interrompu. Tu pourras relancer l’agent en répondant dans ce fil.",
  "conversation.stop_confirm.confirm": "Arrêter",
  "conversation.stop_confirm.deny": "Laisser tourner",
  "conversation.hint": "Réponds dans ce fil pour poursuivre la conversation.",
  "conversation.followup_queued": "Relance en file d’attente (position {n}).",
  "conversation.followup_steered": "Relance transmise à l’agent en cours : il en tient compte dans ce tour.",
  "conversation.followup_received": "Relance reçue : l’agent la traite dès que possible.",

  "answer.empty": "L’agent n’a rien répondu.",
  "answer.part": "Partie {index}/{total}",
  "answer.file_note": "Réponse longue ({chars} caractères) : le texte complet est dans le fichier joint.",
  "answer.file_title": "Réponse de l’agent",
  "answer.file_name": "reponse-agent.md",

  "text.cut":
    "[… {omitted} caractères coupés ici ; le texte entier ({total} caractères) est dans le fichier {path} de ton dossier de travail …]",

  "duration.seconds": "{s} s",
  "duration.minutes": "{m} min {s} s",
  "duration.hours": "{h} h {m} min",
} satisfies Record<string, Message>;
