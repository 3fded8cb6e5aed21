/**
 * A session's meta for the viewer's page (`GET /api/session/ID/meta`): its header's essentials, the
 * chunk index, and the scene to draw.
 */
import { replayModelFromHeader } from '../stream/header.js';
import { StreamReader } from '../stream/reader.js';
import type { SessionSummary, StreamMeta } from './api-types.js';
import { describeScene } from './scene-description.js';

/** The meta of the stream at `path`, the stream of `session`. */
export function streamMeta(path: string, session: SessionSummary): StreamMeta {
  const reader = StreamReader.open(path, { allowTruncated: true });
  try {
    const { header } = reader;
    const model = replayModelFromHeader(header);
    return {
      id: session.id,
      title: `${session.task}${session.app ? ` · ${session.app}` : ''} · ${session.scene} · seed ${session.seed} · ${session.hand} hand`,
      task: session.task,
      scene: session.scene,
      app: session.app,
      seed: header.seed,
      dominantHand: header.dominantHand,
      dt: header.timing.dt,
      frames: reader.frames,
      chunks: reader.chunks.map((c) => ({ firstTick: c.firstTick, frames: c.frames })),
      fixedBytes: header.fixedBytes,
      channels: header.channels,
      encoding: header.encoding.mode,
      indexSource: reader.indexSource,
      sceneDescription: describeScene(model, reader.layout),
    };
  } finally {
    reader.close();
  }
}
