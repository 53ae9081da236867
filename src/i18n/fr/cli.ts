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
  "cli.about.host":
    "exécute les agents des projets placés sur cette machine (enregistre NOM, signale sa présence ; nom par défaut : celui de la machine)",
  "cli.error.arguments": "{n} argument(s) attendu(s), {got} reçu(s)",
  "cli.error.unknown_option": "option inconnue : {option}.",
  "cli.error.option_value": "l’option {option} attend une valeur.",
  "cli.error.option_no_value": "l’option {option} ne prend pas de valeur.",
  "cli.error.invalid_arguments": "arguments invalides.",
  "cli.did_you_mean": "Voulais-tu dire {name} ?",
  "cli.answer.running": "La conversation {id} est en cours. Pour la suivre : codexpi answer {id}",
  "cli.answer.none": "La conversation {id} n’a pas encore de réponse.",
  "cli.stop.done": "Conversation {id} arrêtée ({running} en cours, {queued} en attente annulés).",
  "cli.stop.nothing": "Conversation {id} : plus rien à arrêter.",
  "cli.ask.confirm_stop": "Arrêter l’agent ? [o/N] ",
  "cli.ask.left_running":
    "L’agent continue. Sa réponse : codexpi answer {id} (pour l’arrêter : codexpi stop {id})",
  "cli.error.project_command":
    "sous-commande de project inconnue : {name} (add, list, set, allow-host, deny-host, move, credential ou remove)",
  "cli.error.role": "--role doit valoir {roles}",
  "cli.error.approvals": "--approvals doit valoir never ou on-request",
  "cli.error.prompters_merge": "--prompters-merge doit valoir on ou off",
  "cli.project.prompters_merge":
    "{name} : les personnes qui le sollicitent peuvent fusionner leurs branches : {value}",
  "cli.error.steer": "--steer doit valoir on ou off",
  "cli.error.workspace": "--workspace doit valoir direct ou branch",
  "cli.project.workspace": "projet {name} modifié : espace de travail {mode}",
  "cli.project.steer": "projet {name} modifié : orientation {steer}",
  "cli.project.updated": "projet {name} modifié : approbations {approvals}",
  "cli.error.project_set":
    "project set demande --approvals never|on-request, --steer on|off, --workspace direct|branch, --prompters-merge on|off, --thread-prompters author|prompters, --models a,b|none, --network off|allowlist|open, --host HÔTE|none, --path DOSSIER, ou une option de forge (--forge…, --forge-channel, --forge-triggers, --forge-webhook-secret -, --forge-poll on|off)",
  "cli.project.path_set": "le projet {name} travaille désormais dans {path}",
  "cli.error.host_name": "un nom d’hôte s’écrit en lettres, chiffres, . _ ou - (63 au plus)",
  "cli.project.host_set": "le projet {name} tourne désormais sur {host}",
  "cli.project.moved": "projet {name} déplacé de {from} vers {to} : {files} fichiers de session Codex copiés",
  "cli.project.moved_copy_by_hand":
    "projet {name} déplacé de {from} vers {to} ; copiez vous-même ses sessions Codex : {source} → {target}",
  "cli.project.coordinator": "la machine du coordinateur",
  "cli.project.on_host": "hôte {host}",
  "cli.host.started": "hôte de travail {name} démarré (données dans {dataDir}) ; arrêtez-le par SIGTERM",
  "cli.host.refused": "codexpi host refuse de démarrer : {problem}",
  "cli.host.taken":
    "un autre codexpi host vivant tourne déjà sous le nom {name} : donnez à celui-ci un autre --name",
  "cli.host.lost_name": "l’hôte de travail {name} a été repris par un autre processus : arrêt",
  "cli.host.stopped": "hôte de travail {name} arrêté (les agents en cours continuent)",
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
  "cli.doctor.line": "{mark} {name} : {detail}",
  "cli.doctor.name.configuration": "configuration",
  "cli.doctor.name.database": "base de données",
  "cli.doctor.name.jail": "isolation",
  "cli.doctor.name.layout": "emplacements",
  "cli.doctor.name.overlap": "chemins des projets",
  "cli.doctor.name.credentials": "identifiants",
  "cli.doctor.name.proxy": "proxy de sortie",
  "cli.doctor.name.network": "réseau en accès complet",
  "cli.doctor.name.codex": "codex",
  "cli.doctor.name.codex_config": "configuration codex",
  "cli.doctor.name.sandbox": "bac à sable",
  "cli.doctor.name.model": "modèle",
  "cli.doctor.name.git": "git",
  "cli.doctor.name.slack": "slack",
  "cli.doctor.name.slack_scopes": "scopes slack",
  "cli.doctor.name.slack_app_token": "jeton d’application slack",
  "cli.doctor.data_dir": "répertoire de données {dir}, exécution par {runner}",
  "cli.doctor.overlap_ok":
    "aucun dossier de projet n’est dans celui d’un autre, ne le contient ni n’est le même",
  "cli.doctor.layout_ok": "aucun projet ne contient le répertoire de données ni l’installation",
  "cli.doctor.credentials_ok":
    "{kind} reste sur l’hôte : chaque agent atteint son modèle ({upstream}) par la passerelle de codexpi, aucune isolation ne le détient",
  "cli.doctor.credentials_missing": "la passerelle du modèle ne trouve aucun identifiant : {detail}",
  "cli.doctor.credential_kind.api_key": "la clé d’API OpenAI",
  "cli.doctor.credential_kind.chatgpt": "la connexion ChatGPT (rafraîchie sur l’hôte)",
  "cli.doctor.credential_kind.provider": "la clé du fournisseur",
  "cli.doctor.proxy_ok":
    "le proxy de sortie d’un agent démarre ici, laisse passer un hôte listé et en refuse un autre",
  "cli.doctor.proxy_failed": "le proxy de sortie d’un agent ne fonctionne pas ici : {detail}",
  "cli.doctor.netns_ok":
    "les agents n’ont pas de réseau à eux (leurs seules sorties sont la passerelle de codexpi et, pour un projet qui liste des hôtes, son proxy de sortie) ; un agent en accès complet d’un projet `open` sort par son propre espace de noms réseau (pasta) ; ports de la boucle locale de l’hôte que chaque agent atteint : {ports}",
  "cli.doctor.netns_missing":
    "pasta (paquet Debian passt), capsh (libcap2-bin) ou /dev/net/tun manque : les agents en accès complet partagent l’espace de noms réseau de l’hôte (ses sockets unix abstraites, /proc/net). Correctif (Debian, en root) : `apt-get install passt libcap2-bin`",
  "cli.doctor.netns_off":
    "CODEXPI_NETNS=off : les agents en accès complet partagent l’espace de noms réseau de l’hôte (ses sockets unix abstraites, /proc/net)",
  "cli.doctor.codex_config_ok": "{file} est lisible",
  "cli.doctor.codex_config_none": "pas de {file} : les réglages par défaut de Codex",
  "cli.doctor.codex_config_invalid":
    "{where} : {message}. Correctif : corrige cette ligne de {file} (une clé n’apparaît qu’une fois par table ; la syntaxe TOML : https://toml.io), puis relance doctor ; les contrôles du bac à sable et du modèle l’attendent",
  "cli.doctor.codex_missing":
    "binaire introuvable. Correctif : `npm --prefix {install} ci` (installe @openai/codex), ou règle CODEX_BIN sur un binaire codex",
  "cli.doctor.sandbox_ok": "les projets restreints peuvent lancer des commandes",
  "cli.doctor.sandbox_ok_jailed": "les projets restreints peuvent lancer des commandes (dans l’isolation)",
  "cli.doctor.sandbox_failed": "les projets restreints ne peuvent pas lancer de commandes ici : {detail}",
  "cli.doctor.sandbox_failed_jailed":
    "les projets restreints ne peuvent pas lancer de commandes ici (dans l’isolation) : {detail}",
  "cli.doctor.gateway_failed":
    "la passerelle par laquelle chaque agent atteint son modèle ne peut pas démarrer : {detail}",
  "cli.doctor.git_missing": "git introuvable dans le PATH",
  "cli.doctor.model_default": "le modèle par défaut de Codex",
  "cli.doctor.model_default_no_config": "le modèle par défaut de Codex (pas de config.toml)",
  "cli.doctor.model_with_provider": "{model} (fournisseur {provider})",
  "cli.doctor.model_no_bwrap": "non testé : bubblewrap est absent (voir le contrôle de l’isolation)",
  "cli.doctor.model_ok": "{model} a répondu en {seconds} s ({home})",
  "cli.doctor.model_silent": "pas de réponse en {seconds} s",
  "cli.doctor.model_exited": "codex s’est arrêté ({code})",
  "cli.doctor.model_failed":
    "{model} n’a pas répondu après {seconds} s : {why}. Correctif : connecte-toi (voir docs/setup.md#the-model) ou corrige {config}",
  "cli.doctor.model_cannot_run": "codex n’a pas pu démarrer : {error}",
  "cli.doctor.bot_token_unset": "SLACK_BOT_TOKEN n’est pas défini",
  "cli.doctor.auth_failed":
    "auth.test a échoué : {error}. Correctif : copie le Bot User OAuth Token (xoxb-…) dans SLACK_BOT_TOKEN (réinstalle l’application s’il a été révoqué)",
  "cli.doctor.auth_ok": "auth.test ok : {user} dans {team}",
  "cli.doctor.scopes_unreported": "non indiqués par Slack (x-oauth-scopes) : non vérifiés",
  "cli.doctor.scopes_missing":
    "il manque à SLACK_BOT_TOKEN {scopes}. Correctif : ajoute à l’application les scopes bot de manifest.yml et réinstalle-la",
  "cli.doctor.scopes_ok": "tous les scopes bot de manifest.yml sont accordés",
  "cli.doctor.slack_unreachable": "Slack injoignable à {url} : {error}",
  "cli.doctor.app_token_ok": "apps.connections.open ok (Socket Mode)",
  "cli.doctor.app_token_failed":
    "apps.connections.open a échoué : {error}. Correctif : crée un jeton d’application avec connections:write (Basic Information → App-Level Tokens) et mets-le dans SLACK_APP_TOKEN",
  "cli.layout.data_in_project":
    "le répertoire de données {data} est dans le projet « {project} » ({path}) : ses agents pourraient réécrire la base de codexpi ; place CODEXPI_DATA_DIR hors de tout projet",
  "cli.layout.install_in_project":
    "le projet « {project} » ({path}) contient l’installation de codexpi en service ({install}) : ses agents pourraient réécrire le code que codexpi exécute ; enregistre une copie séparée",
  "cli.layout.project_inside":
    'le projet « {project} » ({path}) est dans le projet « {other} » ({otherPath}) : les agents de « {other} » pourraient lire et écrire ses fichiers et ses hooks git ; donne à l’un des deux un dossier à lui (codexpi project set "{project}" --path DOSSIER) ou retire-en un (codexpi project remove "{project}")',
  "cli.layout.project_same":
    'les projets « {project} » et « {other} » ont le même dossier ({path}) : les agents de chacun pourraient lire et écrire les fichiers et les hooks git de l’autre ; donne à l’un des deux un dossier à lui (codexpi project set "{project}" --path DOSSIER) ou retire-en un (codexpi project remove "{project}")',
  "cli.serve.refused": "codexpi serve refuse de démarrer : {problem}",
  "cli.storage.postgres":
    "impossible d’utiliser la base PostgreSQL de DATABASE_URL : {reason}. Correctif : vérifie que le serveur est joignable, que l’utilisateur peut se connecter, créer des tables et écrire (pas un serveur de secours en lecture seule), ou retire DATABASE_URL pour utiliser le fichier SQLite.",
  "cli.storage.read_only":
    "la base {file} est en lecture seule pour ce processus{user} : {reason}. Correctif : rends {file} et son dossier {dir} modifiables par l’utilisateur qui lance codexpi (chown/chmod, ou remonte en lecture-écriture), ou mets DATABASE_URL=sqlite:/un/chemin/modifiable/codexpi.db.",
  "cli.storage.disk_full":
    "le disque de la base {file} est plein : {reason}. Correctif : libère de la place sur ce disque (df {dir}).",
  "cli.storage.cannot_open":
    "impossible d’ouvrir la base {file} : {reason}. Correctif : vérifie que {dir} existe et est modifiable par l’utilisateur qui lance codexpi{user}, ou mets CODEXPI_DATA_DIR / DATABASE_URL sur un endroit modifiable.",
  "cli.storage.damaged":
    "la base {file} est endommagée ou n’est pas une base SQLite : {reason}. Correctif : restaure-la depuis une sauvegarde, ou fais pointer DATABASE_URL vers le bon fichier.",
  "cli.storage.other":
    "impossible d’utiliser la base {file} : {reason}. Correctif : vérifie le fichier et son dossier {dir} (droits, place libre), ou mets DATABASE_URL.",
  "cli.storage.uid": " (uid {uid})",
  "cli.jail.none": "aucune",
  "cli.jail.mechanism": "{version} (espaces de noms user, pid, ipc, uts ; /tmp et /proc privés)",
  "cli.jail.line": "{mechanism} : {detail}",
  "cli.jail.off": "CODEXPI_JAIL=off : les agents et les commandes de test ne sont PAS isolés",
  "cli.jail.missing":
    "bubblewrap n’est pas installé. Correctif (Debian, en root) : `apt-get install bubblewrap`",
  "cli.jail.no_start": "la prison ne démarre pas ici : {error}",
  "cli.jail.read_outside": "un processus emprisonné a lu un fichier hors de son espace de travail",
  "cli.jail.saw_parent": "un processus emprisonné a vu les processus de codexpi",
  "cli.jail.no_write": "un processus emprisonné n’a pas pu écrire dans son espace de travail",
  "cli.jail.ok":
    "un processus emprisonné n’a pu ni lire le dossier de données ni voir les processus de codexpi, et a écrit dans son espace de travail",
  "cli.startup.bot_token_fix":
    "Correctif : copie le Bot User OAuth Token (xoxb-…) de la page OAuth de l’application (OAuth and Permissions) dans SLACK_BOT_TOKEN (réinstalle l’application dans l’espace de travail si le jeton a été révoqué).",
  "cli.startup.app_token_fix":
    "Correctif : dans Basic Information → App-Level Tokens, crée un jeton avec le scope connections:write et mets-le dans SLACK_APP_TOKEN (xapp-…) ; le Socket Mode doit être activé dans les réglages de l’application (ou retire SLACK_APP_TOKEN et utilise le mode HTTP avec SLACK_SIGNING_SECRET).",
  "cli.startup.missing_scope":
    "Slack a refusé {variable} : il manque au jeton le scope {scope} (missing_scope). Correctif : donne à l’application les scopes de manifest.yml et réinstalle-la dans l’espace de travail.",
  "cli.startup.scope_unnamed": "(non précisé)",
  "cli.startup.token_rejected": "Slack a refusé {variable} ({code}). {fix}",
  "cli.startup.refused": "Slack a refusé de démarrer le bot avec {variable} ({code}). {fix}",
  "cli.startup.unknown_error": "erreur inconnue",
  "cli.startup.unreachable":
    "impossible de joindre Slack à {url} pour démarrer ({why}). Correctif : vérifie le réseau, le proxy et SLACK_API_URL ; si Slack lui-même est en panne, un superviseur qui relance serve (systemd Restart=on-failure) le redémarre dès que Slack répond.",
  "cli.project.full_access": "accès complet",
  "cli.project.restricted": "restreint",
  "cli.project.merge_confirmation": "confirmation de fusion",
  "cli.project.approvals_on_request": "approbations à la demande",
  "cli.project.steer_on": "les réponses orientent le tour en cours",
  "cli.project.workspace_direct": "direct (un agent à la fois dans sa copie de travail)",
  "cli.project.workspace_branch": "branche (une voie par conversation)",
  "cli.project.owner": "propriétaire {id}",
  "cli.project.shared": "sans propriétaire",
  "cli.project.channel": "canal {id}",
} satisfies Record<string, Message>;
