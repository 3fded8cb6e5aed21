/**
 * `xrsim compare A B`: what changed between two sweeps; exit 1 on any regression, so CI can gate on it.
 */
import { ExitCode, XrsimInputError } from '../../errors.js';
import { compareSweeps, type ComparedSession } from '../../sweep/compare.js';
import { readResults } from '../../sweep/results.js';
import { printJson, type Command } from '../command.js';

/** `xrsim compare A B`. */
export const compareCommand: Command = {
  name: 'compare',
  summary: 'compare two sweep folders: regressions, fixes, score changes, new errors',
  help: `xrsim compare BASELINE-DIR CANDIDATE-DIR [--json]

Sessions are matched by task, app, scene, seed and hand. A regression is a session that passed in the
baseline and does not in the candidate (failed, or errored).
Exit codes: 0 no regression, 1 at least one regression, 2 bad input.`,
  options: {},
  positionals: true,
  async run({ positionals, json }) {
    if (positionals.length !== 2) throw new XrsimInputError(`expected two sweep folders, got ${positionals.length}`, { expected: 'xrsim compare BASELINE-DIR CANDIDATE-DIR' });
    const comparison = compareSweeps(readResults(positionals[0]), readResults(positionals[1]));
    if (json) printJson(comparison);
    else {
      const list = (title: string, rows: ComparedSession[], detail: (r: ComparedSession) => string) => {
        process.stdout.write(`${title}: ${rows.length}\n`);
        for (const r of rows) process.stdout.write(`  ${r.session}: ${r.before} → ${r.after}${detail(r)}\n`);
      };
      list('regressions', comparison.regressions, (r) => (r.lost.length ? ` (lost ${r.lost.join(', ')})` : ''));
      list('fixes', comparison.fixes, (r) => (r.gained.length ? ` (gained ${r.gained.join(', ')})` : ''));
      list('new errored sessions', comparison.newErrored, () => '');
      process.stdout.write(`score changes: ${comparison.scoreChanges.length}\n`);
      for (const c of comparison.scoreChanges.slice(0, 50)) process.stdout.write(`  ${c.session} › ${c.milestone}: ${c.before} → ${c.after}\n`);
      if (comparison.onlyInA.length || comparison.onlyInB.length) process.stdout.write(`only in the baseline: ${comparison.onlyInA.length}, only in the candidate: ${comparison.onlyInB.length}\n`);
      process.stdout.write(`${comparison.matched} sessions compared\n`);
    }
    return comparison.regressions.length > 0 ? ExitCode.failed : ExitCode.ok;
  },
};
