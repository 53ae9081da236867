/** Messages français du frontal forge (issue 33) : webhooks, liaisons, réponses sur la forge. */
export const forgeFront = {
  "reason.forge_webhook_secret_invalid":
    "secret de webhook refusé : une ligne de 16 à 256 caractères imprimables, sans blanc",
  "forge.reply.not_linked":
    "@{login}, votre compte n’est lié à aucun membre Slack de cette équipe : rien n’a été lancé. Dans Slack, lancez `/codex forge link {forge}` et publiez ici en commentaire le code qu’il vous donne (ou demandez à un admin : `codexpi forge link {forge}:{login} U…`).",
  "forge.reply.fork":
    "@{login}, les pull requests venant de forks ne sont pas lancées ici : rien n’a été lancé.",
  "forge.reply.no_channel":
    "Ce dépôt n’a pas encore de canal Slack pour codexpi (`codexpi forge set PROJET --channel C…`) : rien n’a été lancé.",
  "forge.reply.refused": "@{login}, rien n’a été lancé : {reason}",
  "forge.reply.linked": "@{login} est maintenant lié à son compte Slack.",
  "forge.reply.code_unknown":
    "@{login}, ce code de liaison est inconnu, déjà utilisé ou expiré : demandez-en un nouveau dans Slack (`/codex forge link {forge}`).",
  "forge.reply.answer": "{answer}\n\n— [la conversation dans Slack]({link})",
  "forge.reply.answer_no_link": "{answer}\n\n— la conversation continue dans Slack",
  "forge.push.pushed": "Poussé sur la branche `{branch}` de la pull request (`{sha}`).",
  "forge.push.refused": "Rien poussé sur la branche de la pull request : {reason}",
  "forge.issue.pr_opened": "Ouvert {url}, qui ferme #{number} une fois fusionnée.",
  "forge.issue.pr_refused": "Aucune pull request ouverte pour ce ticket : {reason}",
  "forge.reply.failed": "Le tour s’est terminé sans réponse : {reason}",
  "forge.issue.prompt":
    "Traitez l’issue {ref} citée ci-dessus (les mots de ceux qui l’ont écrite) : faites dans ce dépôt le changement qu’elle demande, et dites ce que vous avez fait.",
  "forge.root": "*{login}* sur {link} {title} : {prompt}",
  "forge.link.code":
    "Publiez ce commentaire sur une pull request ou une issue d’un dépôt lié à codexpi, depuis votre compte {forge}, dans l’heure : `{code}`",
  "command.forge.syntax": "/codex forge link github|gitlab",
  "command.forge.help":
    "lier votre compte GitHub ou GitLab à votre compte Slack : un code à usage unique à publier sur la forge",
  "reason.forge_not_running": "le frontal forge ne tourne pas dans ce bot",
  "cli.doctor.name.forge": "webhooks de forge",
  "cli.doctor.forge_missing": "il manque au projet {project} : {missing}",
  "cli.doctor.forge_socket_mode":
    "les webhooks demandent le mode HTTP (SLACK_APP_TOKEN est défini : le Socket Mode n’a pas d’URL publique)",
  "cli.doctor.forge_ok":
    "{n} projet(s) reçoivent des webhooks de forge : dépôt, secret de webhook et jeton enregistrés",
  "cli.about.forge":
    "Depuis la forge : canal Slack d’un projet, identifiant et secret de webhook (sur l’entrée standard) ; comptes de forge liés à des membres Slack",
  "cli.forge.linked": "compte {forge} {login} lié à {user}",
  "cli.forge.unlinked": "compte {forge} {login} : liaison retirée",
  "cli.forge.not_linked": "le compte {forge} {login} n’était pas lié",
  "cli.forge.settings":
    "projet {name} : canal forge {channel}, identifiant @{handle}, déclencheurs {triggers}, correction de CI {fixCi} (au plus {tries} essais par pull request)",
  "cli.forge.secret_stored": "secret de webhook enregistré dans {file}",
  "cli.forge.secret_removed": "secret de webhook retiré",
  "cli.forge.secret_absent": "aucun secret de webhook n’était enregistré",
  "cli.forge.poll_on":
    "relève activée : la forge est lue toutes les CODEXPI_FORGE_POLL_SECONDS (sans webhook ; seuls les commentaires écrits depuis son activation)",
  "cli.forge.poll_off": "relève désactivée (les commentaires n’arrivent que par webhook)",
  "cli.error.forge":
    "usage : codexpi forge set NOM [--channel C…|none] [--handle NOM] [--triggers comments,issues,ci|none] [--fix-ci on|off] [--fix-ci-tries N] [--forks on|off] [--poll on|off] [--webhook-secret -|--remove-webhook-secret] | forge link github|gitlab:LOGIN UTILISATEUR | forge unlink github|gitlab:LOGIN",
};
