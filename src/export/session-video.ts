/**
 * A video of a recorded session as its user saw it: for a browser app, what its page drew into its XR layer
 * (the session run again in Chromium: `app-layer-video.ts`); otherwise the simulation's view from the head
 * (the CPU renderer). Encoded by ffmpeg (`video.ts`). Sweeps (`--videos`) and design judges use it.
 */
import { StreamReader } from '../stream/reader.js';
import { isBrowserAppStream } from './app-layer-source.js';
import { encodeAppLayerVideo } from './app-layer-video.js';
import { encodeVideo, type VideoReport } from './video.js';
import { SimulationViewSource } from './video-source.js';

/**
 * Encodes the session recorded in `stream` into `out` (`.webm` or `.mp4`) and says what it shows: the page's
 * `layer` or the `simulation`'s view. Throws what went wrong.
 */
export async function encodeSessionVideo(stream: string, options: { out: string; width: number; height: number; fps: number }): Promise<VideoReport & { view: 'layer' | 'simulation' }> {
  const reader = StreamReader.open(stream, { depthImages: false });
  try {
    if (isBrowserAppStream(reader)) return { ...(await encodeAppLayerVideo(reader, { out: options.out, fps: options.fps })), view: 'layer' };
    return { ...(await encodeVideo(new SimulationViewSource(reader, { camera: 'head', width: options.width, height: options.height, fovDeg: 90 }), { out: options.out, fps: options.fps })), view: 'simulation' };
  } finally {
    reader.close();
  }
}
