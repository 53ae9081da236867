import type { Message } from "../message.js";

/** Messages français du réseau des agents : connexions refusées par le proxy de sortie (issue 31). */
export const egress = {
  "egress.refused_head":
    ":no_entry: Pendant ce tour, l’agent a tenté d’atteindre des hôtes que le projet {project} n’autorise pas :",
  "egress.refused_line": "• {host} — {why}. Un admin peut l’autoriser : {command} (ou {cli})",
  "egress.reason.not_listed": "absent de la liste réseau du projet",
  "egress.reason.private": "adresse locale ou privée, qu’un admin doit lister explicitement",
} satisfies Record<string, Message>;
