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
    "aucun jeton de forge pour le projet {name} : un admin l’enregistre sur l’hôte, jamais dans Slack : `codexpi project credential {name} --forge-token -` (ou `codexpi credential --forge-token -` pour toute l’installation)",
  "reason.forge_not_configured":
    "le projet {name} n’a pas de forge : un admin la règle avec `/codex project forge {name} --kind github|gitlab --repo PROPRIÉTAIRE/NOM` (ou `codexpi project set {name} --forge github|gitlab --forge-repo PROPRIÉTAIRE/NOM`)",
  "reason.forge_remote_missing": "le remote {remote} n’existe pas dans ce dépôt",
  "reason.forge_remote_unsupported":
    "le remote {remote} utilise un transport que codexpi ne pousse pas (seulement https, ssh ou un chemin local)",
  "reason.forge_remote_insecure":
    "pousser avec un jeton en http simple vers {host} est refusé : utilise https",
  "reason.forge_push_failed": "le push vers {remote} a échoué : {detail}",
  "reason.forge_fetch_failed": "la récupération de la branche {branch} depuis {remote} a échoué : {detail}",
  "reason.forge_push_rejected":
    "la branche {branch} de {remote} a des commits que la lane n’a pas (pas d’avance rapide) : rien n’a été poussé, et rien n’est jamais forcé",
  "reason.forge_token_refused": "la forge a refusé le jeton",
  "reason.forge_forbidden": "la forge refuse cette action avec ce jeton : {detail}",
  "reason.forge_repo_not_found": "dépôt {repo} introuvable sur la forge, ou le jeton n’y a pas accès",
  "reason.forge_request_refused": "la forge a refusé la demande : {detail}",
  "reason.forge_unreachable": "la forge ne répond pas : {detail}",

  "reason.forge_token_in_slack":
    "un jeton de forge ne se règle jamais depuis Slack, et rien n’a changé. Un jeton tapé dans un message n’est plus secret : révoquez-le sur la forge, puis enregistrez-en un nouveau sur l’hôte avec `codexpi project credential {name} --forge-token -` (lu sur l’entrée standard)",
  "command.project.forge.syntax":
    "/codex project forge <nom> [--kind github|gitlab|none] [--repo PROPRIÉTAIRE/NOM|none] [--url URL-API|none] [--remote NOM]",
  "command.project.forge.help":
    "Montre les réglages de forge d’un projet (remote, forge, dépôt, jeton enregistré ou non) ou les change ; le jeton se règle sur l’hôte seulement.",
  "forge.view.title": "Réglages de forge de {name}",
  "forge.view.title_changed": "Réglages de forge de {name} modifiés",
  "forge.view.remote": "• Remote : {remote} → {url}",
  "forge.view.no_remote": "_aucun dans le checkout du projet_",
  "forge.view.kind": "• Forge : {value}",
  "forge.view.url": "• API : {value}",
  "forge.view.repo": "• Dépôt : {value}",
  "forge.view.set": "{value} (réglé)",
  "forge.view.derived": "{value} (d’après l’URL du remote)",
  "forge.view.none": "_aucun_",
  "forge.view.token_project": "• Jeton : enregistré pour ce projet",
  "forge.view.token_install": "• Jeton : celui de l’installation (aucun pour ce projet)",
  "forge.view.token_none": "• Jeton : _aucun enregistré_",
  "forge.view.lanes":
    "• Les cartes de branche offrent « Pousser la branche » : {push} · « Ouvrir une pull request » : {pr}",
  "forge.view.yes": "oui",
  "forge.view.no": "non",
  "forge.view.change":
    "Changer : `/codex project forge {name} --kind github|gitlab|none --repo PROPRIÉTAIRE/NOM|none --url URL-API|none --remote NOM` (admins).",
  "forge.view.token_cli":
    "Le jeton n’est jamais donné ni montré dans Slack : un admin l’enregistre sur l’hôte avec `codexpi project credential {name} --forge-token -` (lu sur l’entrée standard).",
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
