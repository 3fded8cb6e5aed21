// Sensing: a seated user facing away from the lab bench turns to look at it. The bench's plane appears only
// after it has been seen, a crate carried in later appears later still, a hit test lands on the bench,
// and an anchor on the crate is lost when the crate is taken away.
// Run it from the repository root after `npm install`: node docs/examples/sensing.mjs
import { createSession, decodeEvents, decodeSensingEvent } from 'xrsim';

const task = {
  id: 'example/sensing',
  title: 'look at the bench',
  scene: 'empty-lab',
  duration: 10,
  placement: { anchor: 'table-top', clear: [0.5, 0.35] },
  user: { posture: 'seated', start: { position: [0, 0, 0.35], yawDeg: 180 } },
  sensing: { depth: { noise: 'headset' }, planes: true },
  bodies: [{ id: 'cube', mass: 0.1, friction: 0.5, restitution: 0.1, position: [0.15, 0.0205, 0.05], shape: { type: 'box', size: [0.04, 0.04, 0.04] } }],
  validators: [{ type: 'region', body: 'task:cube', min: [-1, -1, -1], max: [1, 1, 1], milestones: [{ id: 'cube-stays-near', threshold: 0 }] }],
};

const session = await createSession({ task, seed: 1 });
const seconds = () => (session.tick * session.model.timing.dt).toFixed(2);
const surfaceName = (index) => session.environment.surfaceAt(index)?.ref;
const stepUntil = (t) => {
  while (session.tick * session.model.timing.dt < t) {
    session.step();
    for (const record of decodeEvents(session.frame.events, session.frame.eventWords)) {
      const e = decodeSensingEvent(record);
      if (e?.kind === 'plane-added') console.log(`  ${seconds()} s: plane ${e.plane} added: ${surfaceName(e.surface)} (${e.label}, ${e.orientation})`);
      else if (e?.kind === 'anchor-lost' || e?.kind === 'plane-removed') console.log(`  ${seconds()} s: ${e.kind}`);
    }
  }
};

console.log('facing away from the bench:');
stepUntil(3);
console.log('turning to the bench at 3 s:');
session.user.head.turnTo(0, -35);
stepUntil(5);

const depth = session.sensing.depthInformation();
console.log(`depth ${depth.width}x${depth.height}, centre ${depth.getDepthInMeters(0.5, 0.5).toFixed(3)} m`);

const head = session.user.head.state.position;
const [hit] = session.sensing.hitTest([head[0], head[1], head[2]], [0.55 - head[0], 0.74 - head[1], -2.6 - head[2]]);
console.log(`hit test: ${surfaceName(hit.plane.surface)} at ${hit.distance.toFixed(3)} m, y = ${hit.position[1].toFixed(3)}`);

console.log('a crate is carried in behind the user at 5 s; the user turns around at 6 s:');
session.environment.addSurface({ id: 'crate', label: 'table', material: 'painted-wood', position: [0.55, 0.3, -1.3], shape: { type: 'box', size: [0.8, 0.6, 0.6] } });
stepUntil(6);
session.user.head.turnTo(180, -35);
stepUntil(8);
const crate = session.sensing.detectedPlanes().find((p) => surfaceName(p.surface) === 'scene:crate');
const anchor = session.sensing.createAnchor({ position: [0.55, 0.6, -1.3], rotation: [0, 0, 0, 1] }, crate);
console.log('the crate is taken away at 8 s:');
session.environment.removeSurface('scene:crate');
stepUntil(8.5);
console.log(`anchor tracked: ${anchor.tracked}`);
console.log(`result: ${session.finish().status}`);
