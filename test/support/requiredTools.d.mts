/** Whether `command` is an executable file in one of PATH's directories. */
export function onPath(command: string, pathVariable?: string): boolean;

/** What the suite's tools say before any test runs: `fatal` stops the run, `notes` are printed. */
export function toolCheck(
  env: Record<string, string | undefined>,
  found: (command: string) => boolean,
): { fatal: string[]; notes: string[] };

/** Prints the notes and the fatal lines; whether the run may go on. */
export function reportTools(
  env?: Record<string, string | undefined>,
  found?: (command: string) => boolean,
): boolean;
