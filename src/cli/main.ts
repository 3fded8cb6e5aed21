#!/usr/bin/env node
/**
 * The `xrsim` command line. Exit codes: 0 success, 1 failed checks, 2 bad input.
 */
import { ExitCode, QueueUnavailableError, StreamDamageError, XrsimInputError } from '../errors.js';
import { PACKAGE_VERSION } from '../paths.js';
import { closeSharedChromium } from '../browser/chromium.js';
import { parseCommandArgs, printJson, type Command } from './command.js';
import { compareCommand } from './commands/compare.js';
import { exportCommand } from './commands/export.js';
import { flakyCommand } from './commands/flaky.js';
import { inspectCommand } from './commands/inspect.js';
import { listCommand } from './commands/list.js';
import { poseCommand } from './commands/pose.js';
import { rankCommand } from './commands/rank.js';
import { renderCommand } from './commands/render.js';
import { replayCommand } from './commands/replay.js';
import { runCommand } from './commands/run.js';
import { sweepCommand } from './commands/sweep.js';
import { verifyCommand } from './commands/verify.js';
import { viewCommand } from './commands/view.js';
import { workerCommand } from './commands/worker.js';

const COMMANDS: Command[] = [sweepCommand, workerCommand, runCommand, flakyCommand, compareCommand, rankCommand, inspectCommand, verifyCommand, replayCommand, renderCommand, viewCommand, exportCommand, listCommand, poseCommand];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `xrsim ${PACKAGE_VERSION}: a deterministic, headless XR simulation kernel

usage: xrsim <command> [options]     (xrsim <command> --help for its options)

${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Exit codes: 0 success, 1 failed milestones, divergence or damage, 2 bad input (or a queue's Redis unusable).
`;
}

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? ExitCode.badInput : ExitCode.ok;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${PACKAGE_VERSION}\n`);
    return ExitCode.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`xrsim: unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')}\n`);
    return ExitCode.badInput;
  }
  const wantsJson = rest.includes('--json');
  try {
    return await runParsed(command, rest, wantsJson);
  } finally {
    // A command that ran a browser app in this process (verify, render) leaves its warm Chromium open.
    await closeSharedChromium();
  }
}

/** Parses the arguments and runs the command; input errors and crashes become an exit code and a message. */
async function runParsed(command: Command, rest: string[], wantsJson: boolean): Promise<number> {
  try {
    const args = parseCommandArgs(command, rest);
    if (args.help) {
      process.stdout.write(`usage: ${command.help}\n`);
      return ExitCode.ok;
    }
    return await command.run(args);
  } catch (err) {
    const code = err instanceof XrsimInputError || err instanceof StreamDamageError || err instanceof QueueUnavailableError ? ExitCode.badInput : ExitCode.failed;
    const kind = err instanceof XrsimInputError || err instanceof StreamDamageError || err instanceof QueueUnavailableError ? err.kind : 'crash';
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`xrsim ${command.name}: ${message}\n`);
    if (kind === 'crash' && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    if (wantsJson) printJson({ error: { kind, message } });
    return code;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`xrsim: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = ExitCode.failed;
  },
);
