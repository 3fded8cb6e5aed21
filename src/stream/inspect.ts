/**
 * `inspect`: a stream's header, channels, sizes and compression ratio, and a CRC check of every chunk.
 */
import type { ChunkCheck, IndexSource } from './reader.js';
import { StreamReader } from './reader.js';
import type { StreamHeader } from './format.js';

/** What `xrsim inspect` reports. */
export interface InspectReport {
  file: string;
  bytes: number;
  header: Omit<StreamHeader, 'sources'> & { task: string; scene: string };
  channels: { name: string; kind: string; bytes: number | null; entries: number | null }[];
  frames: number;
  ticks: { first: number; last: number } | null;
  indexSource: IndexSource;
  chunks: ChunkCheck[];
  damagedChunks: number[];
  /** Decoded bytes of the intact chunks' frames. */
  rawFrameBytes: number;
  /** Bytes on disk of the intact chunks. */
  storedChunkBytes: number;
  /** rawFrameBytes / storedChunkBytes. */
  ratio: number | null;
  /** Whole-file bytes per frame. */
  bytesPerFrame: number | null;
  sessionHash: string | null;
  ok: boolean;
}

/** Inspects a stream. Throws `XrsimInputError` only for a foreign or truncated file; damage is reported. */
export function inspectStream(path: string): InspectReport {
  const reader = StreamReader.open(path);
  try {
    const { sources, ...header } = reader.header;
    const chunks = reader.checkChunks();
    const intact = chunks.filter((c) => c.ok);
    const rawFrameBytes = intact.reduce((s, c) => s + (c.rawFrameBytes ?? 0), 0);
    const storedChunkBytes = intact.reduce((s, c) => s + c.storedBytes, 0);
    const damagedChunks = chunks.filter((c) => !c.ok).map((c) => c.index);
    return {
      file: path,
      bytes: reader.fileBytes,
      header: { ...header, task: sources.task.id, scene: sources.scene.id },
      channels: reader.header.channels.map((c) => ({ name: c.name, kind: c.kind, bytes: c.bytes ?? null, entries: c.ids?.length ?? null })),
      frames: reader.frames,
      ticks: reader.frames > 0 ? { first: reader.chunks[0].firstTick, last: reader.chunks[0].firstTick + reader.frames - 1 } : null,
      indexSource: reader.indexSource,
      chunks,
      damagedChunks,
      rawFrameBytes,
      storedChunkBytes,
      ratio: storedChunkBytes > 0 ? rawFrameBytes / storedChunkBytes : null,
      bytesPerFrame: reader.frames > 0 ? reader.fileBytes / reader.frames : null,
      sessionHash: reader.sessionHash,
      ok: damagedChunks.length === 0 && reader.indexSource === 'footer',
    };
  } finally {
    reader.close();
  }
}
