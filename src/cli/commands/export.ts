/**
 * `xrsim export`: a recorded stream as an IWER action recording, an MCAP file or JSON lines.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExitCode, XrsimInputError } from '../../errors.js';
import { exportIwer, IWER_OUTPUT } from '../../export/iwer.js';
import { exportJsonl, JSONL_OUTPUT } from '../../export/jsonl.js';
import { exportMcap, MCAP_OUTPUT } from '../../export/mcap.js';
import { checkOutputFile } from '../../output-file.js';
import { StreamReader } from '../../stream/reader.js';
import { parseChoiceArg, printJson, type Command } from '../command.js';
import { requireOnePath } from './paths.js';

const FORMATS = ['iwer', 'mcap', 'jsonl'] as const;
const EXTENSIONS: Record<(typeof FORMATS)[number], string> = { iwer: '.iwer.json', mcap: '.mcap', jsonl: '.jsonl' };
const OUTPUTS = { iwer: IWER_OUTPUT, mcap: MCAP_OUTPUT, jsonl: JSONL_OUTPUT };

/** `xrsim export FILE.xrs --format iwer|mcap|jsonl`. */
export const exportCommand: Command = {
  name: 'export',
  summary: 'export a recorded stream as an IWER recording, an MCAP file (Foxglove) or JSON lines',
  help: `xrsim export FILE.xrs --format iwer|mcap|jsonl [--out PATH] [options]

  --format iwer         IWER's action-recording JSON: head, both hands' 25 WebXR joints relative to
                        their target-ray space, controllers (grip, target ray, buttons, axes); replay it
                        with IWER's ActionPlayer (xrDevice.createActionPlayer(refSpace, recording))
  --format mcap         an MCAP file with typed channels (Foxglove schemas): /tf, /head, /hand/left|right,
                        /controller/left|right, /depth/image, /depth/calibration, /events, /scene
  --format jsonl        one JSON object per frame: tick, time, head, hands (OpenXR joint names),
                        contacts, controllers, bodies, events, depth
  --out PATH            where to write (default: FILE with .iwer.json, .mcap or .jsonl). An existing
                        file is replaced only when it is an export of the same format by xrsim
  --force               replace the file at --out whatever it is (never the stream itself)
  --depth-images        jsonl: include depth images (base64 of little-endian u16 millimetres)
  --json                print { file, format, out, frames, bytes, messages? } as the last line

Exit codes: 0 written, 2 bad input or a damaged stream (the chunk named).`,
  options: {
    format: { type: 'string' },
    out: { type: 'string' },
    'depth-images': { type: 'boolean' },
    force: { type: 'boolean' },
  },
  positionals: true,
  async run({ values, positionals, json }) {
    const v = values as Record<string, string | undefined>;
    const file = requireOnePath(positionals, 'FILE.xrs');
    if (v.format === undefined) throw new XrsimInputError('missing --format', { expected: FORMATS.join(', ') });
    const format = parseChoiceArg('format', v.format, FORMATS, 'jsonl');
    const out = v.out ?? file.replace(/\.xrs$/i, '') + EXTENSIONS[format];
    if (resolve(out) === resolve(file)) throw new XrsimInputError('--out would overwrite the stream', { expected: 'another path' });
    checkOutputFile(out, OUTPUTS[format], { option: v.out === undefined ? `the export of ${file}` : '--out', force: values.force === true });
    const reader = StreamReader.open(file);
    try {
      let lastShown = -1;
      const progress = (tick: number) => {
        const tenth = Math.floor((tick / Math.max(1, reader.frames - 1)) * 10);
        if (tenth > lastShown && reader.frames > 9000) process.stderr.write(`xrsim export: ${tenth * 10} % (tick ${tick} of ${reader.frames})\n`);
        lastShown = Math.max(lastShown, tenth);
      };
      let messages: Record<string, number> | undefined;
      if (format === 'iwer') exportIwer(reader, out, progress);
      else if (format === 'jsonl') exportJsonl(reader, out, { depthImages: values['depth-images'] === true }, progress);
      else messages = await exportMcap(reader, out, progress);
      const report = { file, format, out, frames: reader.frames, bytes: statSync(out).size, ...(messages ? { messages } : {}) };
      if (json) printJson(report);
      else process.stdout.write(`wrote ${out} (${format}, ${reader.frames} frames, ${(report.bytes / 1e6).toFixed(1)} MB)\n`);
      return ExitCode.ok;
    } finally {
      reader.close();
    }
  },
};
