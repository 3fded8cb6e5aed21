/**
 * The `.xrs` frame-stream container. All integers are little-endian.
 *
 * ```
 * header   "XRSTREAM" | u32 formatVersion | u32 jsonBytes | u32 crc32(json) | json (StreamHeader)
 * chunk*   u32 "XCHK" | u32 index | u32 firstTick | u32 frames | u32 rawBytes | u32 storedBytes
 *          | u32 crc32(the 24 bytes before it + stored payload) | stored payload (deflate-raw)
 * footer   u32 "XFTR" | u32 chunks | u32 frames | u32 reserved | u32 sessionHashHi | u32 sessionHashLo
 *          | chunks × (f64 offset | u32 firstTick | u32 frames) | u32 crc32(the footer before it)
 * trailer  f64 footerOffset | "XRSEND\0\0"
 * ```
 * A chunk's raw payload (before deflate):
 * ```
 * u32 × 2F   per-frame 64-bit hashes (hi, lo) of the raw frame bytes
 * u32 × F    event words per frame
 * u8 × F·S   the fixed sections (S bytes each), delta-coded and byte-transposed (kernels/chunk-transform)
 * u32 × E    the event words of all frames, concatenated
 * ```
 * Every chunk decodes on its own, so one damaged chunk never hides the others.
 */
import { startsWith, type OutputKind } from '../output-file.js';
import type { ChannelDescriptor } from '../frame/layout.js';
import type { Handedness } from '../hand/side.js';
import type { SceneSpec } from '../scene/types.js';
import type { TaskSpec } from '../task/types.js';
import type { UserOptions } from '../task/user-options.js';
import type { SensingOptions } from '../task/sensing-options.js';
import type { ProgramSources } from '../task/programs.js';
import type { HandModelSpec } from '../hand/hand-model.js';

/** First 8 bytes of every stream. */
export const HEADER_MAGIC = 'XRSTREAM';

/** A stream, as an output that may replace an existing file (src/output-file.ts). */
export const STREAM_OUTPUT: OutputKind = startsWith('an xrsim stream', HEADER_MAGIC);
/** Magic, format version, JSON length, JSON CRC32. */
export const HEADER_PREFIX_BYTES = 20;
/** "XCHK" read as a little-endian u32. */
export const CHUNK_MAGIC = 0x4b484358;
/** Magic, index, first tick, frames, raw bytes, stored bytes, CRC32. */
export const CHUNK_HEADER_BYTES = 28;
/** "XFTR" read as a little-endian u32. */
export const FOOTER_MAGIC = 0x52544658;
/** Magic, chunks, frames, reserved, session hash (2 words). */
export const FOOTER_FIXED_BYTES = 24;
/** Per chunk: f64 offset, u32 first tick, u32 frames. */
export const FOOTER_ENTRY_BYTES = 16;
/** Last 8 bytes of a complete stream. */
export const TRAILER_MAGIC = 'XRSEND\0\0';
/** f64 footer offset and the trailer magic. */
export const TRAILER_BYTES = 16;

/** Frames per chunk unless asked otherwise: one second at 90 Hz. */
export const DEFAULT_CHUNK_FRAMES = 90;
/** Fewer frames per chunk would make the per-chunk overhead and the delta restart dominate. */
export const MIN_CHUNK_FRAMES = 90;
/**
 * zlib level. Measured on transformed XR chunks: level 3 deflates about 5× faster than 6 for about 12% more
 * bytes, and 9 is 50× slower for 3% fewer (see bench/RESULTS.md).
 */
export const DEFAULT_COMPRESSION_LEVEL = 3;

/** Lossless keeps every bit; quantised stores poses at 0.1 mm and 1/32767 for about 3× smaller streams. */
export type StreamEncoding = 'lossless' | 'quantised';

/** The JSON header of a stream: everything needed to decode it and to re-run the session it records. */
export interface StreamHeader {
  format: 'xrsim-frame-stream';
  formatVersion: number;
  kernelVersion: string;
  generator: string;
  modelHash: string;
  seed: number;
  dominantHand: Handedness;
  /** The session as run: task and scene ids, seed, hand, and the model's substeps and duration. */
  spec: Record<string, unknown>;
  /** The validated scene, task, hand model and user options, so `verify` and `replay` need no files. */
  sources: { scene: SceneSpec; task: TaskSpec; handModel: HandModelSpec; user?: UserOptions; sensing?: SensingOptions; programs?: ProgramSources };
  timing: { dt: number; substeps: number; durationTicks: number };
  channels: ChannelDescriptor[];
  fixedBytes: number;
  encoding: {
    mode: StreamEncoding;
    delta: 'xor' | 'subtract';
    shuffle: 'byte-transpose';
    compression: 'deflate-raw';
    level: number;
    chunkFrames: number;
    quantisation?: { positionQuantum: number; rotationSteps: number };
  };
}

/** One row of the footer index. */
export interface ChunkIndexEntry {
  offset: number;
  firstTick: number;
  frames: number;
}
