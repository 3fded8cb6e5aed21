/**
 * A video of what a browser app rendered into its XR layer, from its recorded stream: the session run
 * again with the page's layer read back ({@link AppLayerSource}) and encoded by ffmpeg. The video is
 * removed again when the re-run turns out not to be the recorded session.
 */
import { rmSync } from 'node:fs';
import type { StreamReader } from '../stream/reader.js';
import { AppLayerSource } from './app-layer-source.js';
import { encodeVideo, type VideoOptions, type VideoReport } from './video.js';

/** Encodes the XR layer of `reader`'s browser app into `options.out`. */
export async function encodeAppLayerVideo(reader: StreamReader, options: VideoOptions): Promise<VideoReport> {
  const source = new AppLayerSource(reader, options.fps);
  let report: VideoReport;
  try {
    report = await encodeVideo(source, options);
    await source.finish();
  } catch (err) {
    await source.close();
    rmSync(options.out, { force: true });
    throw err;
  }
  return report;
}
