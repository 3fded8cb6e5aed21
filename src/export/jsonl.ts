/**
 * `xrsim export --format jsonl`: one JSON object per frame, one per line (see `frame-json.ts`), for
 * scripts. Written as it is read, so memory stays flat for any session length.
 */
import { startsWith, type OutputKind } from '../output-file.js';
import { closeSync, openSync, writeSync } from 'node:fs';
import { replayModelFromHeader } from '../stream/header.js';
import type { StreamReader } from '../stream/reader.js';
import { colliderNames } from './event-json.js';
import { FrameJsonWriter, type FrameJsonOptions } from './frame-json.js';

/** A JSON-lines export, as an output that may replace an existing file: its lines start with the tick (src/output-file.ts). */
export const JSONL_OUTPUT: OutputKind = startsWith('a JSON-lines export written by xrsim', '{"tick":');

/** Writes every frame of `reader` to `out`; returns the number of lines. */
export function exportJsonl(reader: StreamReader, out: string, options: FrameJsonOptions = {}, progress?: (tick: number) => void): number {
  const writer = new FrameJsonWriter(reader.layout, colliderNames(replayModelFromHeader(reader.header)), options);
  const fd = openSync(out, 'w');
  let lines = 0;
  let pending: string[] = [];
  try {
    for (const frame of reader.framesInOrder()) {
      pending.push(JSON.stringify(writer.frame(frame)));
      lines++;
      if (pending.length === 256) {
        writeSync(fd, `${pending.join('\n')}\n`);
        pending = [];
        progress?.(frame.tick);
      }
    }
    if (pending.length) writeSync(fd, `${pending.join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
  return lines;
}
