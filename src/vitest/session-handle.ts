/**
 * A session a test steps a part at a time (`xr.open(spec)` in the `xrsim/vitest` fixture), read frame by
 * frame as `XrPage` reads a page: the app's tags, the hands' joints and every event so far, for checks that
 * milestone results alone cannot express. It works the same for in-process apps and browser pages: it reads
 * the committed frames, as the validators do.
 */
import type { FrameView } from '../frame/frame.js';
import { HAND_JOINT_FLOATS, handTracked } from '../frame/layout.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import { OPENXR_JOINTS, type JointName } from '../hand/joints.js';
import type { SessionResult } from '../session/result.js';
import { createSession, type Session } from '../session/session.js';
import type { SessionSpec } from '../session/spec.js';
import { FrameState } from '../validate/frame-state.js';

/** A tag's pose in a frame. */
export interface TagPoseNow {
  id: string;
  position: Vec3;
  rotation: Quat;
}

/** One event of the session, at the tick whose frame holds it (`app:NAME` for the app's `ctx.emit`). */
export interface SessionEvent {
  tick: number;
  name: string;
  data?: unknown;
}

/** A session stepped by a test. Close it (the fixture closes every one it opened when the test ends). */
export class XrSessionHandle {
  private readonly state = new FrameState();
  private readonly seen: SessionEvent[] = [];
  private result: SessionResult | null = null;
  private closed = false;

  private constructor(readonly session: Session) {
    this.observe(session.frame);
  }

  /** Creates the session and reads its frame 0. */
  static async open(spec: SessionSpec): Promise<XrSessionHandle> {
    return new XrSessionHandle(await createSession(spec));
  }

  /** The tick of the latest frame. */
  get tick(): number {
    return this.session.tick;
  }

  /** Steps `ticks` ticks (fewer at the end of the task), reading every frame on the way. */
  async step(ticks = 1): Promise<FrameView> {
    if (this.closed || this.result) throw new Error('xr.open(): the session is finished or closed');
    for (let i = 0; i < ticks && this.session.tick < this.session.model.timing.durationTicks; i++) this.observe(await this.session.stepTicks(1));
    return this.session.frame;
  }

  /** Steps the simulated seconds `seconds` (rounded to whole ticks). */
  advance(seconds: number): Promise<FrameView> {
    return this.step(Math.round(seconds / this.session.model.timing.dt));
  }

  /** The app's tags in the latest frame, by role: null while a tag is absent. */
  tags(): Record<string, TagPoseNow | null> {
    return Object.fromEntries(
      this.state.tagList.map((t) => [t.role, t.present ? { id: t.id, position: [...t.position] as Vec3, rotation: [...t.rotation] as Quat } : null]),
    );
  }

  /** A hand joint's world position in the latest frame, or null while that hand is not tracked. */
  joint(side: 'left' | 'right', joint: JointName): Vec3 | null {
    const index = OPENXR_JOINTS.indexOf(joint);
    if (index < 0) throw new TypeError(`joint(side, joint): unknown joint ${JSON.stringify(joint)}; expected one of ${OPENXR_JOINTS.join(', ')}`);
    if (side !== 'left' && side !== 'right') throw new TypeError(`joint(side, joint): side must be "left" or "right", got ${JSON.stringify(side)}`);
    const channel = this.session.frame.channel(`hand-${side}`);
    if (!handTracked(channel)) return null;
    const o = index * HAND_JOINT_FLOATS;
    return [channel[o], channel[o + 1], channel[o + 2]];
  }

  /** Every event so far, or those named `name` (`app:spawned`, `actor-failure`, `input:selectstart:right`). */
  events(name?: string): SessionEvent[] {
    return name === undefined ? [...this.seen] : this.seen.filter((e) => e.name === name);
  }

  /** Steps to the end of the task and scores its milestones (the same result `xr.run` gives). */
  async finish(): Promise<SessionResult> {
    if (this.result) return this.result;
    await this.step(this.session.model.timing.durationTicks);
    this.result = this.session.finish();
    return this.result;
  }

  /** Frees the session (and closes its page). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.session.close();
  }

  private observe(frame: FrameView): void {
    this.state.observe(frame);
    for (const e of this.state.events) this.seen.push({ tick: frame.tick, name: e.name, ...(e.data === undefined ? {} : { data: e.data }) });
  }
}
