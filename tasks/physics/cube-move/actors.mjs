// Stick forward, stick left, jump, jump again in the air, then leave the controller alone.
// Distractor: the second press comes while the cube is in the air. An app that jumps on every press without
// checking that the cube stands on the floor jumps twice.
export default function* (a) {
  const pad = a.controller('dominant');
  yield a.wait(0.5);
  yield pad.thumbstick(0, -1, { duration: 1.0 });
  yield a.wait(0.45);
  yield pad.thumbstick(-1, 0, { duration: 1.0 });
  yield a.wait(0.5);
  yield pad.press('a');
  yield a.wait(0.1);
  yield pad.press('a');
}
