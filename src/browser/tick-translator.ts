/**
 * Translates between a session and its page, tick by tick, for the closed loop (`host-app.ts`): each tick's
 * app frame (the in-process host's `XrFrameLike`) becomes the page's `TickInput`, with the page's hit-test
 * results and the answers to its requests served in this frame; and what the page published in its
 * `TickOutput` is applied through the same `AppContext` an in-process app uses: its tags (a tag whose extent
 * or look changed is declared again with it), its app events and its voices (`ctx.audio`), so that the
 * frames record a page exactly as they record an in-process app. The page's requests (hit-test sources,
 * anchors) are served from the next frame on, as a browser resolves a request after the frame that made it.
 */
import type { AppContext, AudioVoice, HitTestSource, XrFrameLike, XrInputSource } from '../app/types.js';
import type { HitTestResult } from '../sensing/hit-test.js';
import type { AudioRecord, PageError, PageRequest, Replies, TickInput, TickOutput } from './protocol.js';
import { sourceId, TickEncoder } from './tick-encoder.js';

type TagPose = { position: [number, number, number]; rotation: [number, number, number, number] } | null;

/** A page error and the tick of the page's output that reported it. */
export type TickedPageError = PageError & { tick: number };

export class TickTranslator {
  private readonly encoder: TickEncoder;
  /** The page's requests not served yet (served in the next frame, or later while their input source is gone). */
  private readonly deferred: PageRequest[] = [];
  private readonly hitSources = new Map<number, HitTestSource>();
  private readonly tagPoses = new Map<string, TagPose>();
  /** The page's playing voices (by its numbers) as the session's voices. */
  private readonly voices = new Map<number, AudioVoice>();
  /** Errors of the output being applied that are the page's doing in the session (past the voice limit). */
  private readonly sessionErrors: TickedPageError[] = [];

  /**
   * @param dt the session's tick length, seconds
   * @param onError receives each page error, after the state of the output that reported it was applied
   */
  constructor(dt: number, private readonly onError: (error: TickedPageError) => void) {
    this.encoder = new TickEncoder(dt);
  }

  /** Serves the requests that are due in this frame and encodes the tick's input for the page. */
  encode(xr: XrFrameLike, ctx: AppContext): TickInput {
    const replies: Required<Replies> = { hitTestSources: [], anchors: [] };
    const waiting: PageRequest[] = [];
    for (const request of this.deferred.splice(0)) {
      if (!this.serve(request, xr, ctx, replies)) waiting.push(request);
    }
    this.deferred.push(...waiting);
    const hits: [number, HitTestResult[]][] = [...this.hitSources].map(([id, source]) => [id, xr.getHitTestResults(source)]);
    return this.encoder.encode(xr, { hits, replies });
  }

  /**
   * Applies the page's output in the frame of the tick it belongs to: its tags, app events and voices now,
   * then its errors; its requests are kept for the next frame.
   */
  apply(output: TickOutput, ctx: AppContext): void {
    this.applyTags(output.tags, output.extents, ctx);
    for (const [name, data] of output.events) ctx.emit(name, data ?? undefined);
    for (const record of output.audio ?? []) this.applyAudio(record, ctx, output.k);
    for (const error of output.errors) this.onError({ ...error, tick: output.k });
    for (const error of this.sessionErrors.splice(0)) this.onError(error);
    this.deferred.push(...output.requests);
  }

  /** Plays the page's voices through `ctx.audio`, so they are recorded as an in-process app's are. */
  private applyAudio(record: AudioRecord, ctx: AppContext, tick: number): void {
    try {
      if (record.type === 'start') this.voices.set(record.voice, ctx.audio.play(record.sound, { position: record.position, gain: record.gain, loop: record.loop }));
      const voice = this.voices.get(record.voice);
      if (record.type === 'update' && voice) {
        if (record.position !== undefined) voice.setPosition(record.position);
        if (record.gain !== undefined) voice.setGain(record.gain);
      }
      if (record.type === 'stop' && voice) {
        voice.stop();
        this.voices.delete(record.voice);
      }
    } catch (error) {
      // Past the voice limit: the page's mistake, as it would be an in-process app's.
      this.sessionErrors.push({ kind: 'exception', message: error instanceof Error ? error.message : String(error), stack: '', tick });
    }
  }

  /** Serves one page request; false when it must wait (its input source is not tracked now). */
  private serve(request: PageRequest, xr: XrFrameLike, ctx: AppContext, replies: Required<Replies>): boolean {
    switch (request.type) {
      case 'hit-test-source': {
        let space: 'viewer' | XrInputSource = 'viewer';
        if (request.space !== 'viewer') {
          const source = xr.inputSources.find((s) => sourceId(s) === request.space);
          if (!source) return false;
          space = source;
        }
        this.hitSources.set(request.id, ctx.requestHitTestSource({ space, entityTypes: request.entityTypes }));
        replies.hitTestSources.push(request.id);
        return true;
      }
      case 'cancel-hit-test-source':
        this.hitSources.get(request.id)?.cancel();
        this.hitSources.delete(request.id);
        return true;
      case 'anchor': {
        const plane = request.planeId === null ? undefined : [...xr.detectedPlanes].find((p) => p.id === request.planeId);
        const [px, py, pz, qx, qy, qz, qw] = request.pose;
        const anchor = ctx.createAnchor({ position: [px, py, pz], rotation: [qx, qy, qz, qw] }, plane);
        replies.anchors.push([request.id, anchor.id]);
        return true;
      }
    }
  }

  /** Tags the page published; a tag whose extent changed is declared again with it (as `ctx.tag` with an extent). */
  private applyTags(tags: TickOutput['tags'], extents: TickOutput['extents'], ctx: AppContext): void {
    const roles = new Set<string>();
    const extentOf = new Map((extents ?? []).map(([role, size, text, look]) => [role, { ...(size ? { size } : {}), ...(text !== null ? { text } : {}), ...(look !== null ? { look } : {}) }]));
    for (const [role, pose] of tags) {
      roles.add(role);
      const value: TagPose = pose ? { position: [pose[0], pose[1], pose[2]], rotation: [pose[3], pose[4], pose[5], pose[6]] } : null;
      const extent = extentOf.get(role);
      if (!this.tagPoses.has(role) || extent) ctx.tag(role, role, () => this.tagPoses.get(role) ?? null, extent && Object.keys(extent).length ? extent : undefined);
      this.tagPoses.set(role, value);
    }
    for (const role of [...this.tagPoses.keys()]) {
      if (roles.has(role)) continue;
      this.tagPoses.delete(role);
      ctx.untag(role);
    }
  }
}
