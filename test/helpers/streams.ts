/**
 * Recording sessions for stream tests, and capturing their live frames for comparison.
 */
import { join } from 'node:path';
import { runSession, type FrameView, type SessionSpec, type SessionResult } from '../../src/index.js';
import { tempDir } from './cli.js';

/** A copy of a live frame's channels. */
export interface CapturedFrame {
  tick: number;
  time: number;
  bodyPoses: Float32Array;
  events: Uint32Array;
}

/** Copies a frame view (views are reused every tick). */
export function capture(frame: FrameView): CapturedFrame {
  return {
    tick: frame.tick,
    time: frame.time,
    bodyPoses: frame.bodyPoses.slice(),
    events: frame.events.slice(0, frame.eventWords),
  };
}

/** Records `spec` to a fresh file and returns the result, the path and every live frame. */
export async function recordWithFrames(
  spec: SessionSpec,
  encoding: 'lossless' | 'quantised' = 'lossless',
): Promise<{ result: SessionResult; path: string; frames: CapturedFrame[] }> {
  const path = join(tempDir(), `${encoding}.xrs`);
  const frames: CapturedFrame[] = [];
  const result = await runSession({ ...spec, record: { path, encoding } }, { onFrame: (f) => frames.push(capture(f)) });
  if (result.status === 'errored') throw new Error(result.error?.message);
  return { result, path, frames };
}
