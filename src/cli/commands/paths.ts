/**
 * Positional file arguments.
 */
import { XrsimInputError } from '../../errors.js';

/** Exactly one positional argument, named `what` in the error. */
export function requireOnePath(positionals: string[], what: string): string {
  if (positionals.length !== 1) {
    throw new XrsimInputError(positionals.length === 0 ? `missing ${what}` : `expected one ${what}, got ${positionals.length} arguments`, {
      expected: `one ${what}`,
    });
  }
  return positionals[0];
}
