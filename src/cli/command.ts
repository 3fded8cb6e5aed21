/**
 * The shape of a CLI command and the argument parsing every command shares.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { XrsimInputError } from '../errors.js';
import { resolveWorkerCount } from '../session/pool.js';
import { isSeed } from '../session/spec.js';

/** Options in `node:util` parseArgs form. */
export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** One `xrsim` subcommand. */
export interface Command {
  name: string;
  summary: string;
  /** Usage line and option descriptions, printed by `--help` and on bad arguments. */
  help: string;
  options: OptionSpec;
  positionals?: boolean;
  /** Runs the command and returns its exit code. */
  run(args: ParsedArgs): Promise<number>;
}

/** Parsed arguments. */
export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  json: boolean;
}

/** Options every command accepts. */
export const COMMON_OPTIONS: OptionSpec = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** Parses a command's arguments; unknown options and missing values are bad input. */
export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs & { help: boolean } {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...COMMON_OPTIONS, ...command.options },
      strict: true,
      allowPositionals: command.positionals ?? false,
    });
    return {
      values: values as ParsedArgs['values'],
      positionals,
      json: values.json === true,
      help: values.help === true,
    };
  } catch (err) {
    throw new XrsimInputError(`${(err as Error).message.replace(/\. To specify a positional.*$/s, '')}`, {
      expected: `usage: ${command.help.split('\n')[0]}`,
    });
  }
}

/** Parses `--seed`: a non-negative integer written in decimal digits. */
export function parseSeedArg(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!isSeed(value)) throw new XrsimInputError(`--seed must be a non-negative integer, got "${text}"`, { expected: 'an integer such as 1 or 42' });
  return value;
}

/** Parses an option that must be one of `choices`. */
export function parseChoiceArg<T extends string>(name: string, text: string | undefined, choices: readonly T[], fallback: T): T {
  if (text === undefined) return fallback;
  if (!(choices as readonly string[]).includes(text)) {
    throw new XrsimInputError(`--${name} must be one of ${choices.join(', ')}, got "${text}"`, { expected: choices.join(' or ') });
  }
  return text as T;
}

/** Parses a positive number option. */
export function parseNumberArg(name: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new XrsimInputError(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got "${text}"`);
  }
  return value;
}

/** Prints one JSON object as the last line of output. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/**
 * Parses `--workers N` (default: one per core). More than the machine allows (4 per core) is capped, with a
 * note on stderr naming the command.
 */
export function parseWorkersArg(command: string, text: string | undefined): number {
  const count = resolveWorkerCount(parseNumberArg('workers', text, true));
  if (count.capped) process.stderr.write(`xrsim ${command}: --workers ${count.requested} is more than this machine's ${count.max} (4 per core); using ${count.max}\n`);
  return count.workers;
}
