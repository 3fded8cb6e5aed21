/**
 * Plane detection over time, hit tests and anchors, as an app would experience them: planes appear only
 * after they have been seen, surfaces added later appear later, and attribute changes are distinguishable
 * from pose changes.
 */
import { describe, expect, it } from 'vitest';
import {
  buildModel,
  buildSceneGeometry,
  choosePlane,
  decodeEvents,
  decodeSensingEvent,
  listSceneIds,
  loadScene,
  loadTask,
  type Session,
  type SensingEvent,
} from '../src/index.js';
import { benchSession, stepFor } from './helpers/user.js';

/** Runs `seconds` and collects the sensing events with their ticks. */
function collect(session: Session, seconds: number, at?: (t: number) => void): (SensingEvent & { tick: number })[] {
  const events: (SensingEvent & { tick: number })[] = [];
  stepFor(session, seconds, (tick) => {
    for (const e of decodeEvents(session.frame.events, session.frame.eventWords)) {
      const decoded = decodeSensingEvent(e);
      if (decoded) events.push({ ...decoded, tick });
    }
    at?.(tick * session.model.timing.dt);
  });
  return events;
}

/** A seated user at the lab bench, facing away from it (toward the south wall), with plane detection. */
const facingAway = () => benchSession({ sensing: { planes: true } }, { duration: 12, user: { posture: 'seated', start: { position: [0, 0, 0.35], yawDeg: 180 } } });
const benchIndex = (session: Session) => session.model.statics.findIndex((s) => s.id === 'lab-bench');
const added = (events: (SensingEvent & { tick: number })[], surface: number) =>
  events.filter((e) => e.kind === 'plane-added' && e.surface === surface);

describe('plane discovery', () => {
  it('never reports a table that is never seen, while reporting what is seen', async () => {
    const session = await facingAway();
    const events = collect(session, 6);
    expect(added(events, benchIndex(session))).toEqual([]);
    const southWall = session.model.statics.findIndex((s) => s.id === 'wall-south');
    expect(added(events, southWall)).toHaveLength(1);
    session.dispose();
  });

  it('reports a table first seen at 3 s only after the latency', async () => {
    const session = await facingAway();
    const dt = session.model.timing.dt;
    let turned = false;
    const events = collect(session, 6, (t) => {
      if (!turned && t >= 3) {
        session.user.head.turnTo(0, -35);
        turned = true;
      }
    });
    const bench = added(events, benchIndex(session));
    expect(bench).toHaveLength(1);
    const seenAt = bench[0].tick * dt;
    // The head needs a few hundred milliseconds to turn; the plane follows 0.5 s after enough is seen.
    expect(seenAt).toBeGreaterThanOrEqual(3 + 0.5);
    expect(seenAt).toBeLessThan(3 + 0.5 + 0.8);
    expect(bench[0]).toMatchObject({ label: 'table', orientation: 'horizontal' });
    session.dispose();
  });

  it('reports a surface added at 5 s after it is seen, never before', async () => {
    const session = await facingAway();
    session.user.head.turnTo(180, -35);
    let added5 = false;
    const events = collect(session, 8, (t) => {
      if (!added5 && t >= 5) {
        session.environment.addSurface({ id: 'crate', label: 'table', material: 'painted-wood', position: [0.55, 0.3, -1.3], shape: { type: 'box', size: [0.8, 0.6, 0.6] } });
        added5 = true;
      }
    });
    const surfaceAdded = events.find((e) => e.kind === 'surface-added');
    expect(surfaceAdded).toMatchObject({ kind: 'surface-added', surface: session.model.statics.length, spec: { id: 'crate' } });
    const crate = added(events, session.model.statics.length);
    expect(crate).toHaveLength(1);
    expect(crate[0].tick).toBeGreaterThan(surfaceAdded!.tick);
    expect(crate[0].tick * session.model.timing.dt).toBeGreaterThanOrEqual(5 + 0.5);
    expect(crate[0]).toMatchObject({ label: 'table', orientation: 'horizontal' });
    session.dispose();
  });

  it('moves lastChangedTime on polygon changes only, not on pose changes', async () => {
    // Looking down at the floor in front of the user, then panning across it: the polygon grows.
    const session = await facingAway();
    session.user.head.turnTo(180, -60);
    const floor = session.model.statics.findIndex((s) => s.id === 'floor');
    let panned = false;
    const events = collect(session, 4, (t) => {
      if (!panned && t >= 1.5) {
        session.user.head.turnTo(100, -40);
        panned = true;
      }
    });
    const floorEvents = events.filter((e) => (e.kind === 'plane-added' || e.kind === 'plane-updated') && e.surface === floor) as Extract<SensingEvent, { kind: 'plane-updated' }>[] & { tick: number }[];
    expect(floorEvents[0].kind).toBe('plane-added');
    const growth = floorEvents.filter((e) => e.kind === 'plane-updated');
    expect(growth.length).toBeGreaterThan(0);
    for (const e of growth) {
      expect(e.flags).toBe(1);
      expect(e.lastChangedTick).toBe((e as unknown as { tick: number }).tick);
    }
    // The polygon only grows: each update's area is at least the last one's.
    const areas = floorEvents.map((e) => polygonArea(e.polygon));
    for (let i = 1; i < areas.length; i++) expect(areas[i]).toBeGreaterThanOrEqual(areas[i - 1] - 1e-9);
    // A still head sees nothing new: no updates.
    const quiet = collect(session, 1.5).filter((e) => e.kind === 'plane-updated');
    expect(quiet).toEqual([]);

    // Moving the whole floor is a pose change: an update flagged 2, and lastChangedTime stays.
    const before = session.sensing.detectedPlanes().find((p) => p.surface === floor)!;
    const lastChanged = before.lastChangedTick;
    session.environment.moveSurface('scene:floor', [0, -0.06, 0]);
    const moved = collect(session, 0.1).filter((e) => e.kind === 'plane-updated' && e.surface === floor) as Extract<SensingEvent, { kind: 'plane-updated' }>[];
    expect(moved).toHaveLength(1);
    expect(moved[0].flags).toBe(2);
    expect(moved[0].lastChangedTick).toBe(lastChanged);
    expect(moved[0].pose[1]).toBeCloseTo(-0.01, 5);
    expect(session.sensing.detectedPlanes().find((p) => p.surface === floor)).toBe(before); // same object
    session.dispose();
  });
});

function polygonArea(points: [number, number][]): number {
  let twice = 0;
  for (let i = 0; i < points.length; i++) {
    const [x0, z0] = points[i];
    const [x1, z1] = points[(i + 1) % points.length];
    twice += x0 * z1 - x1 * z0;
  }
  return Math.abs(twice) / 2;
}

describe('labels and orientations of every surface of every shipped scene', () => {
  // What a headset should report for each surface: its orientation, or null for no plane at all.
  const EXPECTED_OTHER: Record<string, 'horizontal' | 'vertical' | null> = {
    'kitchen/fridge': 'horizontal',
    'kitchen/wall-cabinet': 'horizontal',
    'kitchen/chair-west': 'horizontal',
    'kitchen/chair-east': 'horizontal',
    'kitchen/bin': null,
    'living-room/tv-stand': 'horizontal',
    'living-room/dining-chair-north': 'horizontal',
    'living-room/dining-chair-south': 'horizontal',
    'office/office-chair': 'horizontal',
    'office/whiteboard': 'vertical',
    'office/filing-cabinet': 'horizontal',
  };
  const byLabel = (label: string): 'horizontal' | 'vertical' | null | undefined =>
    ({ floor: 'horizontal', ceiling: 'horizontal', table: 'horizontal', desk: 'horizontal', couch: 'horizontal', shelf: 'horizontal', bed: 'horizontal', wall: 'vertical', door: 'vertical', window: 'vertical', screen: 'vertical', lamp: null, plant: null })[label] as 'horizontal' | 'vertical' | null | undefined;

  for (const sceneId of listSceneIds()) {
    it(sceneId, () => {
      const scene = loadScene(sceneId);
      const model = buildModel(scene, loadTask('physics/stack-settle'));
      const index = buildSceneGeometry(model);
      const room = scene.spec.room.size;
      model.statics.forEach((s, i) => {
        if (s.origin !== 'scene') return;
        const expected = s.label === 'other' ? EXPECTED_OTHER[`${sceneId}/${s.id}`] : byLabel(s.label);
        expect(expected, `${sceneId}/${s.id} has an expectation`).not.toBeUndefined();
        const plane = choosePlane(index.geometry, index.statics[i], s.label, [0, room[1] / 2, 0], 0.04);
        if (expected === null) {
          expect(plane, `${sceneId}/${s.id}`).toBeNull();
          return;
        }
        expect(plane, `${sceneId}/${s.id}`).not.toBeNull();
        expect(plane!.label).toBe(s.label);
        // The face's normal in the world: up (or down for a ceiling), or level for vertical planes.
        const g = index.geometry;
        const [x, y, z, w] = plane!.local.rotation;
        const localNormal = [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)];
        const p = plane!.primitive;
        const ny = g.rot(p, 0, 1) * localNormal[0] + g.rot(p, 1, 1) * localNormal[1] + g.rot(p, 2, 1) * localNormal[2];
        if (expected === 'horizontal') expect(Math.abs(ny), `${sceneId}/${s.id}`).toBeGreaterThan(0.99);
        else expect(Math.abs(ny), `${sceneId}/${s.id}`).toBeLessThan(0.01);
        if (s.label === 'ceiling') expect(ny).toBeLessThan(0);
        else if (expected === 'horizontal') expect(ny).toBeGreaterThan(0);
      });
    });
  }

  it('reports the same orientation and label in a session that looks all around', async () => {
    const session = await benchSession({ sensing: { planes: true } }, { duration: 12 });
    session.user.head.turnTo(0, -20);
    const events: SensingEvent[] = [];
    for (const yaw of [0, 90, 180, 270]) {
      session.user.head.turnTo(yaw, -15);
      events.push(...collect(session, 1.5));
    }
    const reported = events.filter((e) => e.kind === 'plane-added') as Extract<SensingEvent, { kind: 'plane-added' }>[];
    expect(reported.length).toBeGreaterThanOrEqual(6);
    for (const e of reported) {
      const surface = session.model.statics[e.surface];
      expect(e.label).toBe(surface.label);
      expect(e.orientation).toBe(surface.label === 'wall' || surface.label === 'door' ? 'vertical' : 'horizontal');
    }
    session.dispose();
  });
});

describe('hit tests and anchors', () => {
  it('a ray from the head down onto the table hits the table plane first, its pose Y along the table normal', async () => {
    const session = await benchSession({ sensing: { planes: true } });
    session.user.head.turnTo(0, -35);
    stepFor(session, 1.5);
    const head = session.user.head.state.position;
    const target = [0.55, 0.74, -2.6];
    const results = session.sensing.hitTest([head[0], head[1], head[2]], [target[0] - head[0], target[1] - head[1], target[2] - head[2]]);
    expect(results.length).toBeGreaterThanOrEqual(1);
    const first = results[0];
    expect(first.plane!.surface).toBe(benchIndex(session));
    expect(first.position[1]).toBeCloseTo(0.74, 6);
    expect(first.position[0]).toBeCloseTo(0.55, 6);
    const [x, y, z, w] = first.rotation;
    const yAxis = [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)];
    expect(yAxis[1]).toBeCloseTo(1, 9);
    // Sorted by distance; the floor under the bench, if detected, comes later.
    for (let i = 1; i < results.length; i++) expect(results[i].distance).toBeGreaterThanOrEqual(results[i - 1].distance);
    // The depth image agrees with the plane to within a few millimetres.
    session.dispose();
  });

  it('hits the depth image too, close to the plane hit', async () => {
    const session = await benchSession({ sensing: { planes: true, depth: { noise: 'ideal' } } });
    session.user.head.turnTo(0, -35);
    stepFor(session, 1.5);
    const head = session.user.head.state.position;
    const direction: [number, number, number] = [0.55 - head[0], 0.74 - head[1], -2.6 - head[2]];
    const [plane] = session.sensing.hitTest([head[0], head[1], head[2]], direction);
    const [depth] = session.sensing.hitTest([head[0], head[1], head[2]], direction, { entityTypes: ['depth'] });
    expect(depth.entity).toBe('depth');
    expect(Math.abs(depth.distance - plane.distance)).toBeLessThan(0.01);
    session.dispose();
  });

  it('records hit tests, keeps anchors with their surface, and loses them when it is removed', async () => {
    const session = await facingAway();
    session.user.head.turnTo(180, -35);
    session.environment.addSurface({ id: 'crate', label: 'table', material: 'painted-wood', position: [0.55, 0.3, -1.3], shape: { type: 'box', size: [0.8, 0.6, 0.6] } });
    collect(session, 1.5);
    const crate = session.sensing.detectedPlanes().find((p) => p.surface === session.model.statics.length)!;
    expect(crate).toBeDefined();
    const [hit] = session.sensing.hitTest([0.55, 1.5, -1.3], [0, -1, 0]);
    expect(hit.plane).toBe(crate);
    const anchor = session.sensing.createAnchor({ position: hit.position, rotation: hit.rotation }, crate);
    let events = collect(session, 0.1);
    expect(events.map((e) => e.kind)).toEqual(['hit-test-results', 'anchor-created']);
    expect((events[0] as Extract<SensingEvent, { kind: 'hit-test-results' }>).results[0]).toMatchObject({ plane: crate.id });

    session.environment.moveSurface('scene:crate', [0.75, 0.3, -1.3]);
    events = collect(session, 0.1);
    const movedAnchor = events.find((e) => e.kind === 'anchor-moved');
    expect(movedAnchor).toMatchObject({ anchor: anchor.id });
    expect(anchor.pose.position[0]).toBeCloseTo(0.75, 6);
    expect(anchor.tracked).toBe(true);

    session.environment.removeSurface('scene:crate');
    events = collect(session, 0.1);
    expect(events.map((e) => e.kind)).toEqual(['plane-removed', 'surface-removed', 'anchor-lost']);
    expect(anchor.tracked).toBe(false);
    expect(session.sensing.detectedPlanes().some((p) => p.id === crate.id)).toBe(false);
    session.dispose();
  });
});
