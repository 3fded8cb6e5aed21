/**
 * Names the user gives (a material, an anchor, an app, a pose) meeting the tables they name. A lookup
 * finds a table's own entries only: `"material": "constructor"` or `"__proto__"` must be an unknown name,
 * not `Object.prototype`'s member. Lists of known names in errors are bounded: a table is user data too,
 * and a task with 20,000 bodies must not print all of them.
 */

/** `table[name]` when `name` is one of the table's own keys; undefined otherwise (and for no table). */
export function ownEntry<T>(table: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
}

/** Whether `name` is one of the table's own keys. */
export function hasOwnName(table: object | undefined, name: string): boolean {
  return table !== undefined && Object.hasOwn(table, name);
}

/** How many names an error lists before it says how many more there are. */
export const LISTED_NAMES = 20;

/** `names` joined with ", ", at most {@link LISTED_NAMES} of them, then "… and N more". */
export function listNames(names: Iterable<string>, limit = LISTED_NAMES): string {
  const shown: string[] = [];
  let total = 0;
  for (const name of names) {
    if (total++ < limit) shown.push(name);
  }
  return total > limit ? `${shown.join(', ')} … and ${total - limit} more` : shown.join(', ');
}
