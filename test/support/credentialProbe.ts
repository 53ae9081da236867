/**
 * What an agent runs to look for a credential (issue 31's attack probes): every file it can read
 * outside the system's /usr (and the kernel's own trees), every process's environment and argv,
 * for each value given, then for a turn's model token. The values are rebuilt from halves so that
 * the probe's own argv never holds them, and /proc is matched by the shell itself (a grep would
 * hold the value in its own argv while it reads). Each value gives one line
 * `FOUND:<first 4 chars>:files=<n>:proc=<n>`, then `TOKEN-VARS=<n>` counts the agent's own
 * `CODEXPI_MODEL_TOKEN` variables. Callers plant a control value the probe must find, so that
 * "not found" means absent, not unsearched.
 */
export function credentialProbe(values: readonly string[]): string {
  const split = (s: string) => `$(printf '%s%s' '${s.slice(0, 6)}' '${s.slice(6)}')`;
  const all = [...values, "CODEXPI_MODEL_TOKEN=codexpi-turn-"];
  return `${all.map((v, i) => `V${i}=${split(v)}`).join("; ")}
for v in ${all.map((_, i) => `"$V${i}"`).join(" ")}; do
  n=$(grep -rIsl -e "$v" --exclude-dir=usr --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev / 2>/dev/null | wc -l)
  p=$(for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do cat "$f" 2>/dev/null; echo; done | tr '\\0' '\\n' | { c=0; while IFS= read -r l; do case "$l" in *"$v"*) c=$((c+1));; esac; done; echo $c; })
  echo "FOUND:$(echo "$v" | cut -c1-4):files=$n:proc=$p"
done
env | grep -c -e '^CODEXPI_MODEL_TOKEN=' | sed 's/^/TOKEN-VARS=/'`;
}
