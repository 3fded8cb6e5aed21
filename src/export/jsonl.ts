/**
 * `xrsim export --format jsonl`: one JSON object per frame, one per line (see `frame-json.ts`), for
 * scripts. Written as it is read, so memory stays flat for any session length.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { replayModelFromHeader } from '../stream/header.js';
import type { StreamReader } from '../stream/reader.js';
import { colliderNames } from './event-json.js';
import { FrameJsonWriter, type FrameJsonOptions } from './frame-json.js';

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
