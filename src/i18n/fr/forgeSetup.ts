/** Messages français de la mise en place d’une forge (issue 33) : ses réglages, ce que `doctor` lui demande, les forks. */
export const forgeSetup = {
  "cli.error.forge_setting": "{option} prend {syntax}, pas « {value} »",
  "cli.error.forge_secret_stdin":
    "{option} ne prend que - (le secret sur l’entrée standard) : un argument se voit dans ps et dans l’historique du shell",
  "project.forge_secret_in_slack":
    "Un secret de webhook ne se règle jamais depuis Slack, et rien n’a changé. Celui écrit dans ce message n’est plus secret : faites-en un nouveau, enregistrez-le sur la machine du bot avec `codexpi project set {name} --forge-webhook-secret -` (lu sur l’entrée standard), et donnez-le au webhook de la forge.",
  "project.forge_setting_invalid": "Rien n’a changé : {option} prend {syntax}, pas « {value} ».",
  "project.forge_front_end": "Projet *{name}* depuis la forge : canal {channel}, déclencheurs {triggers}.",
  "reason.lane_from_fork":
    "ce travail est parti de la pull request d’un fork ({branch}) : codexpi ne le pousse jamais, ni n’en ouvre de pull request (quelqu’un peut en reprendre les commits à la main)",
  "forge.push.fork":
    "Rien n’a été poussé : cette pull request vient d’un fork, et codexpi ne pousse jamais le travail d’un fork, ni vers le fork ni ailleurs. Les commits restent dans la voie de codexpi (voir le fil Slack).",
  "cli.forge.forks": "projet {name} : pull requests venues de forks {forks}",
  "cli.doctor.name.forge_project": "forge de {project}",
  "cli.doctor.forge_token_scopes": "portées du jeton : {scopes}",
  "cli.doctor.forge_token_lacks_github":
    "il manque au jeton la portée {needed} (pousser, pull requests, issues, lire les checks ; il a : {scopes}) : faites un jeton classique avec repo, puis `codexpi project credential {name} --forge-token -` (le jeton sur l’entrée standard)",
  "cli.doctor.forge_token_lacks_gitlab":
    "il manque au jeton la portée {needed} (merge requests, notes, pipelines, pousser ; il a : {scopes}) : faites un jeton avec api, puis `codexpi project credential {name} --forge-token -` (le jeton sur l’entrée standard)",
  "cli.doctor.forge_token_fine_grained":
    "jeton à grain fin : GitHub ne dit pas ses permissions, elles ne peuvent pas être lues ; il lui faut, sur {repo}, Contents, Pull requests et Issues en écriture, Checks et Actions en lecture",
  "cli.doctor.forge_token_refused":
    "la forge refuse le jeton (401) : enregistrez-en un valide avec `codexpi project credential {name} --forge-token -` (le jeton sur l’entrée standard)",
  "cli.doctor.forge_unreachable":
    "la forge ne répond pas comme attendu (statut {status}) : vérifiez --forge-url",
  "cli.doctor.forge_webhook_none":
    "aucun webhook de {repo} n’appelle …{path} : ajoutez-en un (docs/forges.md, « Le webhook sur la forge »)",
  "cli.doctor.forge_webhook_unreadable_github":
    "le jeton ne peut pas lire les webhooks de {repo} ({status}) : leur dernière livraison est inconnue (il faudrait admin:repo_hook ou read:repo_hook à un jeton classique, Webhooks en lecture à un jeton à grain fin)",
  "cli.doctor.forge_webhook_unreadable_gitlab":
    "le jeton ne peut pas lire les webhooks de {repo} ({status}) : leur état est inconnu (il faut le rôle Maintainer)",
  "cli.doctor.forge_webhook_unknown": "la forge n’a pas dit ses webhooks (statut {status})",
  "cli.doctor.forge_webhook_enabled": "webhook {url} actif",
  "cli.doctor.forge_webhook_disabled":
    "webhook {url} : {status} jusqu’à {until} (GitLab a cessé de l’appeler après des échecs) : corrigez la cause, puis réactivez-le (projet → Settings → Webhooks → Test)",
  "cli.doctor.forge_webhook_no_delivery": "webhook {url} : aucune livraison encore",
  "cli.doctor.forge_webhook_delivered": "webhook {url} : dernière livraison {status} le {at}",
  "cli.doctor.forge_webhook_401":
    "webhook {url} : dernière livraison refusée (401) le {at} : les secrets diffèrent ; mettez le même des deux côtés : `codexpi forge set {name} --webhook-secret -` (le secret sur l’entrée standard) et le Secret du webhook sur GitHub",
  "cli.doctor.forge_webhook_failed":
    "webhook {url} : dernière livraison en échec ({status}) le {at} : voyez ses Recent Deliveries sur GitHub ; le bot tourne-t-il en mode HTTP, joignable à cette adresse ?",
  "cli.doctor.forge_journal_last": "dernière livraison journalisée par codexpi : {event} le {at} ({outcome})",
  "cli.doctor.forge_journal_none": "codexpi n’a encore journalisé aucune livraison pour ce projet",
};
