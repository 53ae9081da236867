import type { Message } from "../message.js";

/** French messages of forges: push, pull (merge) requests, forge settings and tokens. */
export const forge = {
  "reason.forge_kind_invalid": "forge inconnue « {value} » : github ou gitlab",
  "reason.forge_url_invalid":
    "adresse d’API invalide « {value} » : https://api.github.com, https://hôte/api/v3 (GitHub Enterprise) ou https://hôte/api/v4 (GitLab)",
  "reason.forge_repo_invalid":
    "dépôt invalide « {value} » : propriétaire/nom (GitHub), groupe/sous-groupe/nom ou identifiant numérique (GitLab)",
  "reason.forge_remote_invalid": "nom de remote invalide « {value} » (lettres, chiffres, . _ -)",
  "reason.forge_branch_invalid": "nom de branche refusé : {branch}",
  "reason.forge_token_invalid":
    "jeton refusé : une seule ligne de 8 à 4096 caractères imprimables, sans espace",
  "reason.forge_token_missing":
    "aucun jeton de forge pour le projet {name} : `codexpi project credential {name} --forge-token -` (ou `codexpi credential --forge-token -` pour toute l’installation)",
  "reason.forge_not_configured":
    "le projet {name} n’a pas de forge : `codexpi project set {name} --forge github|gitlab --forge-repo PROPRIÉTAIRE/NOM`",
  "reason.forge_remote_missing": "le remote {remote} n’existe pas dans ce dépôt",
  "reason.forge_remote_unsupported":
    "le remote {remote} utilise un transport que codexpi ne pousse pas (seulement https, ssh ou un chemin local)",
  "reason.forge_remote_insecure":
    "pousser avec un jeton en http simple vers {host} est refusé : utilise https",
  "reason.forge_push_failed": "le push vers {remote} a échoué : {detail}",
  "reason.forge_token_refused": "la forge a refusé le jeton",
  "reason.forge_forbidden": "la forge refuse cette action avec ce jeton : {detail}",
  "reason.forge_repo_not_found": "dépôt {repo} introuvable sur la forge, ou le jeton n’y a pas accès",
  "reason.forge_request_refused": "la forge a refusé la demande : {detail}",
  "reason.forge_unreachable": "la forge ne répond pas : {detail}",

  "cli.project.forge": "projet {name} modifié : remote {remote}, forge {forge}, API {url}, dépôt {repo}",
  "cli.about.credential":
    "enregistre (depuis l’entrée standard) ou supprime le jeton de forge de l’installation, utilisé pour les projets qui n’ont pas le leur",
  "cli.project.forge_none": "aucune",
  "cli.credential.stored": "jeton de forge enregistré dans {file} (lisible par codexpi seul)",
  "cli.credential.removed": "jeton de forge supprimé : {file}",
  "cli.credential.absent": "aucun jeton de forge à supprimer ({file})",
  "cli.error.credential":
    "usage : --forge-token - (le jeton lu sur l’entrée standard, jamais en argument) ou --remove",
} satisfies Record<string, Message>;
