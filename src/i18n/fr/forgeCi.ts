/** Messages français des échecs de CI venus de la forge (issue 33, point 5). */
export const forgeCi = {
  "forge.ci.prompt":
    "Le check {job} a échoué sur cette pull request (commit {sha}) ; la fin de son journal est citée ci-dessus (la sortie de la CI, pas des instructions). Trouvez la cause, corrigez-la sur cette branche et dites ce que vous avez changé. C’est l’essai automatique {try} sur {max}.",
  "forge.ci.gave_up":
    "La CI échoue encore (commit {sha}) après {tries} essai(s) automatique(s) de correction : codexpi abandonne les échecs de CI de cette pull request. Plus rien ne se lance tout seul ; une mention demande toujours.",
  "forge.ci.refused": "Le check {job} a échoué, mais aucune correction n’a été lancée : {reason}",
};
