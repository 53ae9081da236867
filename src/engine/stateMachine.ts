// What every aggregate's machine shares: a transition table (for each status, where it may go)
// and a table of actions (for each action, the statuses that allow it). Pure: stores turn
// these answers into the WHERE of their guarded writes, views and listeners into buttons.

/** For each status, the statuses it may move to; `satisfies` it so a missing status fails to compile. */
export type TransitionTable<S extends string> = { readonly [K in S]: readonly S[] };

/** For each action a person or a flow may take, the statuses that allow it. */
export type ActionTable<S extends string, A extends string> = { readonly [K in A]: readonly S[] };

/** Whether `from → to` is in the table. */
export function allowsMove<S extends string>(table: TransitionTable<S>, from: S, to: S): boolean {
  return table[from].includes(to);
}

/** The statuses from which `to` may be entered, in the table's order. */
export function sourcesOf<S extends string>(table: TransitionTable<S>, to: S): S[] {
  return (Object.keys(table) as S[]).filter((from) => table[from].includes(to));
}

/**
 * The from-states a guarded write puts in its WHERE: the caller's own (narrower) list, checked
 * against the table, or every status the table lets into `to`. A caller naming a move the table
 * does not have is a defect of the code, not a lost race: it throws.
 */
export function guardFor<S extends string>(
  name: string,
  table: TransitionTable<S>,
  to: S,
  from?: readonly S[],
): S[] {
  if (!from) return sourcesOf(table, to);
  const illegal = from.filter((s) => !allowsMove(table, s, to));
  if (illegal.length) throw new Error(`${name}: ${illegal.join("|")} → ${to} is not a transition`);
  return [...from];
}

/** Whether `status` allows `action`. */
export function allows<S extends string, A extends string>(
  actions: ActionTable<S, A>,
  status: S,
  action: A,
): boolean {
  return actions[action].includes(status);
}

/** The actions `status` allows, in the table's order. */
export function actionsAt<S extends string, A extends string>(actions: ActionTable<S, A>, status: S): A[] {
  return (Object.keys(actions) as A[]).filter((a) => actions[a].includes(status));
}

/** Terminal statuses: the table lets them go nowhere. */
export function terminalStatuses<S extends string>(table: TransitionTable<S>): S[] {
  return (Object.keys(table) as S[]).filter((s) => table[s].length === 0);
}
