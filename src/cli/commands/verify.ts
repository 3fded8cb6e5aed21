/**
 * `xrsim verify`: re-run a stream's session and compare per-frame hashes.
 */
import { ExitCode } from '../../errors.js';
import { verifyStream } from '../../stream/verify.js';
import { existsSync, statSync } from 'node:fs';
import { verifySweep } from '../../sweep/verify-sweep.js';
import { parseNumberArg, parseWorkersArg, printJson, type Command } from '../command.js';
import { requireOnePath } from './paths.js';

/** `xrsim verify FILE.xrs`. */
export const verifyCommand: Command = {
  name: 'verify',
  summary: 're-run the session recorded in a stream and compare every frame’s hash',
  help: `xrsim verify FILE.xrs [--agent reference|CMD] [--json]
xrsim verify SWEEP-DIR [--sample N] [--workers N] [--json]

A stream: re-runs the spec in its header (its scene and task are embedded, so no files are needed) and
compares the 64-bit hash of every frame. Prints "identical", or the first divergent tick and channel.
A sweep folder: re-runs its sessions (or a sample of N spread over it) in reverse order on another pool
and compares session hashes; a mismatch whose stream was kept is located to its first divergent tick and
channel.
A session whose actor asked an agent (a.agent) is re-run with the recorded answers, without asking the
agent again; --agent reference|CMD asks that agent again at each recorded decision and reports an answer
that differs from the recording as a divergence (channel agent).
Exit codes: 0 identical, 1 divergent, 2 a damaged stream (chunk, header or footer), not a complete stream, or not a sweep.`,
  options: { sample: { type: 'string' }, workers: { type: 'string' }, agent: { type: 'string' } },
  positionals: true,
  async run({ values, positionals, json }) {
    const path = requireOnePath(positionals, 'FILE.xrs or SWEEP-DIR');
    if (existsSync(path) && statSync(path).isDirectory()) {
      const v = values as Record<string, string | undefined>;
      const report = await verifySweep(path, { sample: parseNumberArg('sample', v.sample, true), workers: parseWorkersArg('verify', v.workers) });
      if (json) printJson(report);
      else {
        for (const m of report.mismatches) {
          const where = m.divergence ? `first divergent tick ${m.divergence.tick}, channel ${m.divergence.channel}: ${m.divergence.detail}` : 'no stream was kept to locate it (sweep with --keep-streams all)';
          process.stdout.write(`MISMATCH ${m.session}: recorded ${m.recorded}, re-run ${m.rerun}; ${where}\n`);
        }
        process.stdout.write(`${report.identical}/${report.checked} sessions identical${report.skipped ? ` (${report.skipped} errored sessions skipped)` : ''}\n`);
      }
      return report.mismatches.length === 0 ? ExitCode.ok : ExitCode.failed;
    }
    const agent = (values as Record<string, string | undefined>).agent;
    const report = await verifyStream(path, {}, agent !== undefined ? { agent } : {});
    if (json) printJson(report);
    else if (report.identical) {
      process.stdout.write(`identical: ${report.compared} frames, session hash ${report.sessionHash.rerun}\n`);
    } else {
      const d = report.firstDivergence!;
      process.stdout.write(`divergent: first at tick ${d.tick}, channel ${d.channel}: ${d.detail}\n`);
    }
    return report.identical ? ExitCode.ok : ExitCode.failed;
  },
};
