// Scripting the simulated user: sit at the lab bench, poke it, pinch, look around, and read what the
// headset would report. Run it from the repository root after `npm install`: node docs/examples/user.mjs
import { createSession, decodeEvents, loadScene } from 'xrsim';

const bench = loadScene('empty-lab').spec.anchors['table-top'].position;

// Any task will do; this one is inline. The task frame is the bench's top surface, the user sits before it.
const task = {
  id: 'example/user',
  title: 'poke and pinch at the bench',
  scene: 'empty-lab',
  duration: 3,
  placement: { anchor: 'table-top', clear: [0.5, 0.35] },
  user: { posture: 'seated', start: { position: [0, 0, 0.35], yawDeg: 0 } },
  bodies: [{ id: 'cube', mass: 0.1, friction: 0.5, restitution: 0.1, position: [0.15, 0.0205, 0.05], shape: { type: 'box', size: [0.04, 0.04, 0.04] } }],
  validators: [{ type: 'region', body: 'task:cube', min: [-1, -1, -1], max: [1, 1, 1], milestones: [{ id: 'cube-stays-near', threshold: 0 }] }],
};

const session = await createSession({ task, seed: 1, dominantHand: 'right' });
const hand = session.user.hand('dominant');
const stepFor = (seconds) => {
  for (let i = 0; i < Math.round(seconds * 90); i++) {
    session.step();
    for (const e of decodeEvents(session.frame.events, session.frame.eventWords)) {
      if (e.name.startsWith('tracking') || e.name === 'target-unreachable') console.log(`  tick ${session.tick}: ${e.name}`);
    }
  }
};

// Poke the bench: aim the index tip 2 cm into it. Surfaces stop the hand at 3 mm.
hand.pose('poke', { duration: 0.2 });
hand.moveTo({ point: [bench[0], bench[1] - 0.02, bench[2]], with: 'index-tip', palmFacing: [0, 0, -1], fingersToward: [0, -1, -0.3] }, { duration: 1 });
stepFor(1.2);
const contacts = session.frame.channel('contacts'); // per probe: distance, normal xyz, surface
const indexTip = 6 * 5 + 1 * 5; // right hand, second probe
console.log(`index tip: ${(-contacts[indexTip] * 1000).toFixed(2)} mm into surface #${contacts[indexTip + 4]}`);

// Lift, pinch, and look at the cube.
hand.rest({ duration: 0.5 });
hand.pinch(1, { duration: 0.3 });
session.user.head.lookAt([bench[0] + 0.15, bench[1], bench[2] + 0.05]);
stepFor(0.8);
const joints = session.frame.channel('hand-right'); // 26 × (position, orientation, radius), then tracked
const gap = Math.hypot(...[0, 1, 2].map((k) => joints[5 * 8 + k] - joints[10 * 8 + k]));
console.log(`pinch: thumb tip to index tip ${(gap * 1000).toFixed(1)} mm, tracked ${joints[26 * 8] === 1}`);

// Reach for something too far away: an event, and the arm stops at full stretch.
hand.moveTo({ point: [bench[0], bench[1] + 0.2, bench[2] - 1.5] }, { duration: 0.5 });
stepFor(0.6);
console.log(`result: ${session.finish().status}`);
