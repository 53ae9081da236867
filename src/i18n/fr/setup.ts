import type { Message } from "../message.js";

/** French messages of a project's setup (issue 31, item 4): its failures, its secrets, its commands. */
export const setup = {
  "setup.failed_exit":
    "La préparation du projet (setup) a échoué (code {code}) ; l’agent n’a pas démarré. Ses dernières lignes :\n```{tail}```",
  "setup.failed_timeout":
    "La préparation du projet (setup) a dépassé sa limite de temps (CODEXPI_SETUP_TIMEOUT) et a été arrêtée ; l’agent n’a pas démarré. Ses dernières lignes :\n```{tail}```",
  "setup.failed_unusable": "La préparation du projet (setup) n’a pas pu servir : {tail}",
  "failure.setup_failed": "La préparation du projet a échoué avant le démarrage de l’agent.",
  "failure.next.setup_failed":
    "À essayer : corrigez la préparation (`.codexpi/setup` dans le dépôt, ou `project set NOM --setup`), puis renvoyez la demande : elle sera relancée.",
  "reason.setup_secret_key_invalid":
    "nom de secret refusé « {key} » : majuscules, chiffres et _ (64 au plus), ni une variable de codexpi ni PATH, HOME, LANG…",
  "reason.setup_secret_value_invalid": "valeur refusée : vide, plus de 64 Kio, ou un octet nul",
  "reason.setup_command_invalid":
    "commande de préparation refusée : une ligne non vide de 4 000 caractères au plus",
  "reason.setup_not_configured":
    "le projet {name} n’a pas de préparation : ni `.codexpi/setup` dans son dépôt, ni `--setup` d’un admin",
  "reason.setup_direct_only":
    "le projet {name} est en mode `branch` : chaque nouvelle voie lance sa préparation elle-même",
  "reason.orch_setup_failed":
    "la préparation du projet a échoué dans le clone de l’orchestration ; ses dernières lignes :\n```{detail}```",
  "cli.project.setup_set": "{name} : préparation définie ({source})",
  "cli.project.setup_cleared":
    "{name} : plus de préparation d’admin (le `.codexpi/setup` du dépôt s’il y en a un)",
  "cli.secret.stored": "{name} : secret {key} enregistré dans {file}",
  "cli.secret.removed": "{name} : secret {key} supprimé",
  "cli.secret.absent": "{name} : aucun secret {key}",
  "cli.secret.none": "{name} : aucun secret de préparation",
  "cli.error.secret":
    "usage : codexpi project secret set NOM CLÉ (la valeur lue sur l’entrée standard) | unset NOM CLÉ | list NOM",
  "cli.about.setup":
    "Lance la préparation d’un projet en mode `direct` dans son répertoire (propriétaire ou admin) et en affiche le résultat ; code de sortie 1 en cas d’échec.",
  "cli.error.setup": "usage : codexpi setup NOM",
  "setup.started": "Préparation de {name} lancée ; son résultat suivra ici.",
  "setup.result.ok": "Préparation de {name} réussie en {seconds} s.",
  "setup.result.failed": "Préparation de {name} en échec ({why}). Ses dernières lignes :\n```{tail}```",
  "setup.result.none": "{name} n’a pas de préparation.",
  "command.setup.syntax": "/codex setup <projet>",
  "command.setup.help":
    "Lance la préparation d’un projet en mode `direct` dans son répertoire (propriétaire ou admin) et en donne le résultat.",
} satisfies Record<string, Message>;
