/**
 * The commands that score a sweep's sessions (a judge of `visual` milestones, a design judge, an agent
 * answering `a.agent` steps) and where their files go, added to each session's spec as it is handed to a
 * pool. They come from whoever runs the sweep or the queue worker, never from a task matrix or a queue job:
 * the line records what ran (the matrix's spec), without them.
 */
import { sep } from 'node:path';
import { XrsimInputError } from '../errors.js';
import type { SweepSpec } from './matrix.js';

/** The scoring commands of a sweep or a queue worker. */
export interface ScoringCommands {
  /** The judge command for `visual` milestones (overrides the tasks' own). */
  judge?: string;
  /** A design judge command, over each app session's video. */
  designJudge?: string;
  /** Who answers `a.agent` steps: `reference`, `replay:STREAM` or a command line (overrides the tasks' `agent`). */
  agent?: string;
}

/**
 * `spec` with the scoring commands and their folders, `DIR/<key>.visual`, `.agent` and `.design`. `dir` is
 * already normal, so paths are joined by hand (this runs once per session of a million-session sweep).
 */
export function withScoringCommands(spec: SweepSpec, key: string, dir: string, commands: ScoringCommands): SweepSpec {
  const judge = { ...(commands.judge ? { command: commands.judge } : {}), imagesDir: `${dir}${sep}${key}.visual` };
  const agent = { ...(commands.agent ? { agent: commands.agent } : {}), agentDir: `${dir}${sep}${key}.agent` };
  const designJudge = commands.designJudge ? { designJudge: { command: commands.designJudge, dir: `${dir}${sep}${key}.design` } } : {};
  return { ...spec, judge, ...agent, ...designJudge };
}

/** Checks each command given is a non-empty string (bad input otherwise). */
export function checkScoringCommands(commands: ScoringCommands): void {
  const check = (name: keyof ScoringCommands, expected: string) => {
    const value = commands[name];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) throw new XrsimInputError(`${name} must be ${expected}, got ${JSON.stringify(value)}`, { expected });
  };
  check('judge', 'a non-empty command line');
  check('designJudge', 'a non-empty command line');
  check('agent', 'reference, replay:STREAM or a non-empty command line');
}
