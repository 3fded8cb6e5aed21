/**
 * `xrsim verify`: re-run a stream's session and compare per-frame hashes.
 */
import { ExitCode } from '../../errors.js';
import { verifyStream } from '../../stream/verify.js';
import { printJson, type Command } from '../command.js';
import { requireOnePath } from './paths.js';

/** `xrsim verify FILE.xrs`. */
export const verifyCommand: Command = {
  name: 'verify',
  summary: 're-run the session recorded in a stream and compare every frame’s hash',
  help: `xrsim verify FILE.xrs [--json]

Re-runs the spec in the stream's header (its scene and task are embedded, so no files are needed) and
compares the 64-bit hash of every frame. Prints "identical", or the first divergent tick and channel.
Exit codes: 0 identical, 1 divergent (or a needed chunk is damaged), 2 not a complete stream.`,
  options: {},
  positionals: true,
  async run({ positionals, json }) {
    const report = await verifyStream(requireOnePath(positionals, 'FILE.xrs'));
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
