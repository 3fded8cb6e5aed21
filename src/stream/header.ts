/**
 * Building the header a stream of a model's session carries.
 */
import { POSITION_QUANTUM, ROTATION_STEPS } from '../../kernels/quantise.js';
import { frameLayoutFor } from '../frame/layout.js';
import type { Handedness } from '../hand/side.js';
import { buildModel } from '../model/build.js';
import type { SimModel } from '../model/types.js';
import { loadScene } from '../scene/load.js';
import { loadTask } from '../task/load.js';
import type { ProgramSources } from '../task/programs.js';
import { PACKAGE_VERSION } from '../paths.js';
import { KERNEL_VERSION, STREAM_FORMAT_VERSION } from '../version.js';
import { DEFAULT_CHUNK_FRAMES, DEFAULT_COMPRESSION_LEVEL, type StreamEncoding, type StreamHeader } from './format.js';

/** What a header records about the session beyond its model. */
export interface StreamHeaderOptions {
  seed: number;
  dominantHand: Handedness;
  /** The spec as run (ids, seed, overrides). */
  spec: Record<string, unknown>;
  encoding?: StreamEncoding;
  chunkFrames?: number;
  compressionLevel?: number;
}

/** The header of a stream recording a session of `model`. Contains no wall-clock data: same inputs, same bytes. */
export function buildStreamHeader(model: SimModel, options: StreamHeaderOptions): StreamHeader {
  const mode = options.encoding ?? 'lossless';
  const layout = frameLayoutFor(model);
  const { dt, substeps, durationTicks } = model.timing;
  return {
    format: 'xrsim-frame-stream',
    formatVersion: STREAM_FORMAT_VERSION,
    kernelVersion: KERNEL_VERSION,
    generator: `xrsim ${PACKAGE_VERSION}`,
    modelHash: model.hash,
    seed: options.seed,
    dominantHand: options.dominantHand,
    spec: options.spec,
    sources: model.sources,
    timing: { dt, substeps, durationTicks },
    channels: layout.channels,
    fixedBytes: layout.fixedBytes,
    encoding: {
      mode,
      delta: mode === 'quantised' ? 'subtract' : 'xor',
      shuffle: 'byte-transpose',
      compression: 'deflate-raw',
      level: options.compressionLevel ?? DEFAULT_COMPRESSION_LEVEL,
      chunkFrames: options.chunkFrames ?? DEFAULT_CHUNK_FRAMES,
      ...(mode === 'quantised' ? { quantisation: { positionQuantum: POSITION_QUANTUM, rotationSteps: ROTATION_STEPS } } : {}),
    },
  };
}

/**
 * Rebuilds the model of a stream's session from the sources its header embeds (no files needed).
 * `programs` replaces the recorded actor script and app (`xrsim replay` runs another app).
 */
export function modelFromHeader(header: StreamHeader, programs: ProgramSources | undefined = header.sources.programs): SimModel {
  const spec = header.spec as { substeps?: number; duration?: number };
  return buildModel(loadScene(header.sources.scene), loadTask(header.sources.task), {
    substeps: spec.substeps,
    duration: spec.duration,
    handModel: header.sources.handModel,
    user: header.sources.user,
    sensing: header.sources.sensing,
    programs,
  });
}

/**
 * The model of a stream's session for reading it without running anything (viewing, exporting, rendering
 * videos): the task's actor script and apps are left out, so a stream opens even where the modules it
 * recorded are gone or have changed since. Geometry, user, sensing and validators are the same as
 * {@link modelFromHeader}'s; the model hash is not (it hashes the programs).
 */
export function replayModelFromHeader(header: StreamHeader): SimModel {
  const spec = header.spec as { substeps?: number; duration?: number };
  const { actors: _actors, apps: _apps, ...task } = header.sources.task;
  return buildModel(loadScene(header.sources.scene), loadTask(task), {
    substeps: spec.substeps,
    duration: spec.duration,
    handModel: header.sources.handModel,
    user: header.sources.user,
    sensing: header.sources.sensing,
  });
}
