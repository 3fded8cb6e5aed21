/**
 * A video render thread (`ParallelViewSource`): it replays a stream on its own and renders the frames it is
 * asked for, in increasing order, with the CPU renderer. An entry point kept beside the video code, as the
 * viewer's stream worker is kept beside the viewer.
 *
 * Messages in: `{ kind: 'open', path, options }`, then `{ kind: 'frame', k, seconds }`, and
 * `{ kind: 'recycle', pixels }` (a frame's buffer handed back once encoded, to be filled again).
 * Messages out: `{ k, pixels }` (the frame's bytes, transferred) or `{ k, error }`.
 */
import { parentPort } from 'node:worker_threads';
import { StreamReader } from '../stream/reader.js';
import { SimulationViewSource, type SimulationViewOptions } from './video-source.js';

/** What the thread is told. */
export type VideoWorkerMessage =
  | { kind: 'open'; path: string; options: Omit<SimulationViewOptions, 'gl'> }
  | { kind: 'frame'; k: number; seconds: number }
  | { kind: 'recycle'; pixels: Uint8Array };

/** Buffers handed back, reused for the next frames (allocating and collecting one a frame cost as much as colouring it). */
const spare: Uint8Array[] = [];

let source: SimulationViewSource | null = null;
let failure: string | null = null;

parentPort?.on('message', (message: VideoWorkerMessage) => {
  if (message.kind === 'open') {
    try {
      source = new SimulationViewSource(StreamReader.open(message.path, { depthImages: false }), message.options);
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }
    return;
  }
  if (message.kind === 'recycle') {
    spare.push(message.pixels);
    return;
  }
  try {
    if (!source) throw new Error(failure ?? 'no stream opened');
    const frame = source.frameAt(message.seconds);
    let pixels = spare.pop();
    if (pixels?.length !== frame.length) pixels = new Uint8Array(frame.length);
    pixels.set(frame);
    parentPort!.postMessage({ k: message.k, pixels }, [pixels.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort!.postMessage({ k: message.k, error: err instanceof Error ? err.message : String(err) });
  }
});
