/**
 * `xrsim inspect`: what a stream holds, and whether every chunk is intact.
 */
import { ExitCode } from '../../errors.js';
import { inspectStream, type InspectReport } from '../../stream/inspect.js';
import { printJson, type Command } from '../command.js';
import { formatBytes, table } from '../format.js';
import { requireOnePath } from './paths.js';

/** `xrsim inspect FILE.xrs`. */
export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'show a stream’s header, channels, sizes and ratio, and check every chunk’s CRC',
  help: `xrsim inspect FILE.xrs [--json]

Exit codes: 0 intact, 2 damaged (each damaged chunk named; the others stay readable) or not a complete stream.`,
  options: {},
  positionals: true,
  async run({ positionals, json }) {
    const report = inspectStream(requireOnePath(positionals, 'FILE.xrs'));
    if (json) printJson(report);
    else printHuman(report);
    return report.ok ? ExitCode.ok : ExitCode.badInput;
  },
};

function printHuman(r: InspectReport): void {
  const h = r.header;
  const e = h.encoding;
  const rows = [
    ['file', `${r.file} (${formatBytes(r.bytes)})`],
    ['stream', `${h.format} v${h.formatVersion}, kernel ${h.kernelVersion}, written by ${h.generator}`],
    ['session', `task ${h.task}, scene ${h.scene}, seed ${h.seed}, ${h.dominantHand} hand`],
    ['model', h.modelHash],
    ['encoding', `${e.mode} (${e.delta} delta, ${e.shuffle}, ${e.compression} level ${e.level}), ${e.chunkFrames} frames per chunk`],
    ['timing', `dt ${h.timing.dt.toPrecision(6)} s (${Math.round(1 / h.timing.dt)} Hz), ${h.timing.substeps} substep(s), ${h.timing.durationTicks} ticks`],
    ['channels', r.channels.map((c) => `${c.name} (${c.entries !== null ? `${c.entries} × ` : ''}${c.bytes !== null ? `${c.bytes} B` : 'variable'})`).join(', ')],
    ['frames', r.ticks ? `${r.frames} (ticks ${r.ticks.first}–${r.ticks.last})` : '0'],
    ['size', `${formatBytes(r.rawFrameBytes)} of frames stored in ${formatBytes(r.storedChunkBytes)}: ratio ${r.ratio?.toFixed(2) ?? '–'}×, ${r.bytesPerFrame?.toFixed(1) ?? '–'} B/frame`],
    ['hash', r.sessionHash ?? `unknown (${r.indexSource})`],
    ['chunks', `${r.chunks.length - r.damagedChunks.length} of ${r.chunks.length} intact${r.indexSource === 'footer' ? '' : `; index from ${r.indexSource}`}`],
  ];
  process.stdout.write(table(rows, ''));
  for (const c of r.chunks.filter((chunk) => !chunk.ok)) process.stdout.write(`DAMAGED ${c.error}\n`);
  if (r.damagedChunks.length > 0) {
    const intact = r.chunks.filter((c) => c.ok).map((c) => c.index);
    process.stdout.write(`readable chunks: ${intact.length > 0 ? intact.join(', ') : 'none'}\n`);
  }
}
