/** The frame stream a session records: its header holds everything `verify` needs to rebuild the exact model. */
import type { SimModel } from '../model/types.js';
import { buildStreamHeader } from '../stream/header.js';
import { StreamWriter } from '../stream/writer.js';
import type { Handedness, RecordOptions } from './spec.js';

/** Opens the stream a session records into (its frames are appended as they are committed). */
export function openRecorder(model: SimModel, options: RecordOptions, seed: number, dominantHand: Handedness, perturbationSeed: number | undefined): StreamWriter {
  const spec = {
    task: model.taskId,
    scene: model.sceneId,
    seed,
    dominantHand,
    substeps: model.timing.substeps,
    duration: model.timing.duration,
    ...(model.sources.programs?.app ? { app: model.sources.programs.app.name } : {}),
    ...(perturbationSeed !== undefined ? { perturbationSeed } : {}),
  };
  const header = buildStreamHeader(model, { seed, dominantHand, spec, encoding: options.encoding, chunkFrames: options.chunkFrames, compressionLevel: options.compressionLevel });
  return new StreamWriter(options.path, header, { replace: options.replace });
}
