/** Messages français du réseau d’un projet : mode, hôtes permis, préréglages (issue 31, point 3). */
export const network = {
  "reason.network_host_invalid":
    "`{host}` n’est pas un hôte à permettre : un nom d’hôte (`registry.npmjs.org`, ou `*.example.com` pour ses sous-domaines) ou une adresse IP, suivi de `:PORT` s’il n’est ni 80 ni 443, ou un préréglage (npm, pypi, crates, github, debian, golang, rubygems, maven) ; ni chemin, ni utilisateur",
  "reason.network_hosts_missing": "nomme au moins un hôte ou un préréglage (npm, pypi, crates, github, …)",
  "reason.network_port_invalid": "le port {port} n’existe pas : un port est un nombre de 1 à 65535",
  "reason.network_mode_invalid": "le mode réseau est off, allowlist ou open (pas {mode})",
  "reason.network_private_admins_only":
    "seuls les admins peuvent laisser les agents de {name} joindre {host} : c’est une adresse de cette machine ou de son réseau privé (boucle locale, lien local, réseau local, `localhost`) ; demande-le à un admin (`/codex project allow-host {name} {host}`)",
  "reason.network_role_admins_only":
    "seuls les admins règlent le réseau de {name} : c’est le projet {role} de l’installation",

  "command.project.hosts.syntax": "/codex project allow-host|deny-host <nom> <hôte[:port]|préréglage> …",
  "command.project.hosts.help":
    "Le propriétaire du projet (ou un admin) ajoute des hôtes que ses agents peuvent joindre, ou les retire ; préréglages : npm, pypi, crates, github, debian, golang, rubygems, maven ; une adresse privée (`localhost`, 127.0.0.1, 10.x…) : admins seulement.",

  "project.network_off": "Projet *{name}* : ses agents n’ont plus de réseau.",
  "project.network_allowlist":
    "Projet *{name}* : ses agents ne joignent plus que les hôtes listés : {hosts}.",
  "project.network_allowlist_empty":
    "Projet *{name}* : ses agents ne joignent que les hôtes listés, et aucun ne l’est encore (pas de réseau) : `/codex project allow-host {name} npm` en ajoute.",
  "project.network_open":
    "Projet *{name}* : ses agents joignent tout hôte public (une adresse privée seulement si un admin la liste).",
  "project.hosts_allowed": "Projet *{name}* : ajouté {changed}. Hôtes listés : {hosts}.",
  "project.hosts_already": "Projet *{name}* : déjà listé, rien n’a changé. Hôtes listés : {hosts}.",
  "project.hosts_denied": "Projet *{name}* : retiré {changed}. Hôtes listés : {hosts}.",
  "project.hosts_not_listed":
    "Projet *{name}* : aucun de ces hôtes n’était listé, rien n’a changé. Hôtes listés : {hosts}.",
  "project.hosts_none": "aucun (pas de réseau)",
  "project.network_inactive":
    "La liste ne s’applique qu’en mode allowlist, et *{name}* est en mode {mode} : `/codex project set {name} --network allowlist`.",

  "projects.network_off": "pas de réseau",
  "projects.network_open": "réseau ouvert",
  "projects.network_empty": "réseau : aucun hôte listé",
  "projects.network_hosts": "réseau : {hosts}",

  "cli.project.network_set": "projet {name} modifié : réseau {mode}",
  "cli.project.hosts_added": "{name} : ajouté {changed}",
  "cli.project.hosts_removed": "{name} : retiré {changed}",
  "cli.project.hosts_unchanged": "{name} : rien n’a changé",
  "cli.project.hosts_list": "{name} : réseau {mode}, hôtes listés : {hosts}",
  "cli.project.hosts_none": "aucun",
  "cli.project.network_off": "pas de réseau",
  "cli.project.network_open": "réseau ouvert",
  "cli.project.network_hosts": "réseau {hosts}",
  "cli.error.network": "--network attend off, allowlist ou open",
  "cli.error.hosts":
    "allow-host et deny-host attendent un projet puis au moins un HÔTE[:PORT] ou préréglage ({presets})",

  "cli.doctor.name.egress": "réseau des projets",
  "cli.doctor.egress_ok": "aucun projet n’est ouvert à tout internet",
  "cli.doctor.egress_open":
    "le projet {name} est ouvert à tout hôte public ; pour le restreindre à ce dont il a besoin, lance `{allow}` puis `{close}`",
  "cli.doctor.egress_open_unknown":
    "le projet {name} est ouvert à tout hôte public ; pour le restreindre, lance `{close}` puis ajoute les hôtes dont il a besoin (codexpi project allow-host)",
};
