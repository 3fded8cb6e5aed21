/**
 * Anchors: poses the headset keeps track of. An anchor created on a detected plane keeps its pose relative
 * to that plane, follows it when its surface moves (AnchorMoved) and is lost when the surface is removed
 * (AnchorLost). An anchor created away from any plane stays fixed in the world.
 */
import { composePose, quatConjugate, quatMultiply, rotateVec, type Pose } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import { EventType, NO_PLANE } from '../frame/events.js';
import type { Frame } from '../frame/frame.js';
import type { DetectedPlane } from './planes.js';

/** An anchor as apps see it. */
export interface Anchor {
  readonly id: number;
  /** The plane it is attached to, or null when fixed in the world. */
  readonly planeId: number | null;
  /** World pose now. */
  pose: Pose;
  /** False once its surface is gone. */
  tracked: boolean;
}

interface AnchorState {
  anchor: Anchor;
  /** Pose relative to the plane (when attached). */
  local: Pose | null;
  /** The plane's pose when the anchor was last placed, to notice moves. */
  planePose: Float64Array | null;
}

/** The anchors of one session. */
export class Anchors {
  private readonly states: AnchorState[] = [];
  private readonly created: AnchorState[] = [];

  /** Creates an anchor at a world pose, attached to `plane` if given. Recorded as AnchorCreated this tick. */
  create(pose: Pose, plane: DetectedPlane | null): Anchor {
    const anchor: Anchor = { id: this.states.length, planeId: plane ? plane.id : null, pose: clonePose(pose), tracked: true };
    const state: AnchorState = { anchor, local: null, planePose: null };
    if (plane) {
      const planePose = poseOf(plane.pose);
      const inverse = quatConjugate(planePose.rotation);
      const offset: Vec3 = [pose.position[0] - planePose.position[0], pose.position[1] - planePose.position[1], pose.position[2] - planePose.position[2]];
      state.local = { position: rotateVec(inverse, offset), rotation: quatMultiply(inverse, pose.rotation) };
      state.planePose = plane.pose.slice();
    }
    this.states.push(state);
    this.created.push(state);
    return anchor;
  }

  /** How many anchors were ever created. */
  get count(): number {
    return this.states.length;
  }

  /** All anchors, tracked or not, in creation order. */
  all(): readonly Anchor[] {
    return this.states.map((s) => s.anchor);
  }

  /** Follows planes that moved, loses anchors whose plane is gone, and records creations. */
  update(planes: ReadonlyMap<number, DetectedPlane>, frame: Frame): void {
    for (const state of this.created) {
      frame.beginRecord(EventType.AnchorCreated);
      frame.word(state.anchor.id);
      frame.word(state.anchor.planeId ?? NO_PLANE);
      writePose(frame, state.anchor.pose);
      frame.endRecord();
    }
    this.created.length = 0;
    for (const state of this.states) {
      const { anchor } = state;
      if (!anchor.tracked || anchor.planeId === null) continue;
      const plane = planes.get(anchor.planeId);
      if (!plane) {
        anchor.tracked = false;
        frame.beginRecord(EventType.AnchorLost);
        frame.word(anchor.id);
        frame.endRecord();
        continue;
      }
      if (state.planePose!.every((v, k) => v === plane.pose[k])) continue;
      state.planePose!.set(plane.pose);
      anchor.pose = composePose(poseOf(plane.pose), state.local!);
      frame.beginRecord(EventType.AnchorMoved);
      frame.word(anchor.id);
      writePose(frame, anchor.pose);
      frame.endRecord();
    }
  }
}

function writePose(frame: Frame, pose: Pose): void {
  for (const v of pose.position) frame.float(v);
  for (const v of pose.rotation) frame.float(v);
}

function poseOf(p: Float64Array): Pose {
  return { position: [p[0], p[1], p[2]], rotation: [p[3], p[4], p[5], p[6]] };
}

function clonePose(p: Pose): Pose {
  return { position: [...p.position], rotation: [...p.rotation] };
}
