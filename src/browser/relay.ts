/**
 * The in-process side of a browser app: an `AppModule` that turns each tick's `XrFrameLike` (what the
 * in-process host gives apps) into the page's `TickInput`, and applies what the page published (tags,
 * app events, hit-test-source and anchor requests) through the same `AppContext` an in-process app uses.
 *
 * Phase 1: the session steps synchronously, so the page's output of tick N is applied in tick N + 1's
 * `frame` (a one-tick delay). Phase 2 makes the host await the page within the tick (docs/BROWSER.md).
 * `ReplayRelay` (replay-relay.ts) replays a recorded page into a second session without the delay.
 */
import type { AppContext, AppModule, AudioVoice, HitTestSource, XrFrameLike, XrInputSource } from '../app/types.js';
import type { HitTestResult } from '../sensing/hit-test.js';
import type { AudioRecord, PageError, PageRequest, Replies, TickInput, TickOutput } from './protocol.js';
import { sourceId, TickEncoder } from './tick-encoder.js';

type TagPose = { position: [number, number, number]; rotation: [number, number, number, number] } | null;

export class BrowserRelay {
  private readonly encoder: TickEncoder;
  private readonly pending: TickOutput[] = [];
  protected readonly deferred: PageRequest[] = [];
  private readonly hitSources = new Map<number, HitTestSource>();
  private readonly tagPoses = new Map<string, TagPose>();
  /** The page's playing voices (by its numbers) as the session's voices. */
  private readonly voices = new Map<number, AudioVoice>();
  /** Tick inputs not yet taken by the driver, in order. */
  readonly inputs: TickInput[] = [];
  /** Page errors with the tick the page reported them in (phase 2 records them as AppError events). */
  readonly errors: (PageError & { tick: number })[] = [];
  /** For each page output (by its tick), the session tick whose frame applied it and served its requests. */
  readonly appliedAt = new Map<number, number>();

  constructor(dt: number) {
    this.encoder = new TickEncoder(dt);
  }

  /** The app module to run in an in-process session in place of the app. */
  module(): AppModule {
    return { frame: (xr, ctx) => this.frame(xr, ctx) };
  }

  /** Hands the page's outputs over; they are applied at the next frame. */
  accept(outputs: TickOutput[]): void {
    this.pending.push(...outputs);
  }

  /** Takes the tick inputs produced so far. */
  take(): TickInput[] {
    return this.inputs.splice(0);
  }

  private frame(xr: XrFrameLike, ctx: AppContext): void {
    this.receive(xr, ctx);
    const replies: Required<Replies> = { hitTestSources: [], anchors: [] };
    const waiting: PageRequest[] = [];
    for (const request of this.deferred.splice(0)) {
      if (!this.serve(request, xr, ctx, replies)) waiting.push(request);
    }
    this.deferred.push(...waiting);
    const hits: [number, HitTestResult[]][] = [...this.hitSources].map(([id, source]) => [id, xr.getHitTestResults(source)]);
    this.deliver(this.encoder.encode(xr, { hits, replies }), ctx);
  }

  /** Takes in the page outputs that arrived since the last frame: state now, requests to serve. */
  protected receive(xr: XrFrameLike, ctx: AppContext): void {
    this.apply(this.pending.splice(0), xr.tick, ctx);
  }

  /**
   * Applies page outputs in the frame of session tick `tick`: their state now, their requests from the next
   * frame on (as a browser resolves a request after the frame that made it). The closed loop calls this in
   * the tick the output belongs to.
   */
  apply(outputs: TickOutput[], tick: number, ctx: AppContext): void {
    for (const output of outputs) {
      this.appliedAt.set(output.k, tick);
      for (const error of output.errors) this.errors.push({ ...error, tick: output.k });
      this.applyState(output, ctx);
      this.deferred.push(...output.requests);
    }
  }

  /** Hands this tick's input on (the driver sends it to the page). */
  protected deliver(input: TickInput, _ctx: AppContext): void {
    this.inputs.push(input);
  }

  /** Publishes what the page published: its tags, its app events and what its voices did. */
  protected applyState(output: TickOutput, ctx: AppContext): void {
    this.applyTags(output.tags, output.extents, ctx);
    for (const [name, data] of output.events) ctx.emit(name, data ?? undefined);
    for (const record of output.audio ?? []) this.applyAudio(record, ctx, output.k);
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
      this.errors.push({ kind: 'exception', message: error instanceof Error ? error.message : String(error), stack: '', tick });
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
