// Frame a rectangle with both hands in front of the eyes, hold it, then lower the hands.
// Distractor: on the way, the hands slow down in a smaller frame before opening it to the final one. Slowing
// down is not holding still: an app that takes a fifth of a second of calm as a hold photographs it.
export default function* (a) {
  const left = a.hand('left');
  const right = a.hand('right');
  const facing = { with: 'index-tip', palmFacing: [0, 0, -1] };
  yield a.wait(0.3);
  yield [left.pose('frame'), right.pose('frame')];
  yield [left.reach(a.at(-0.07, 0.41, 0.07), { ...facing, duration: 0.6 }), right.reach(a.at(0.07, 0.33, 0.07), { ...facing, duration: 0.6 })];
  yield [left.reach(a.at(-0.11, 0.43, 0.07), { ...facing, duration: 0.5 }), right.reach(a.at(0.11, 0.31, 0.07), { ...facing, duration: 0.5 })];
  yield a.wait(1.2);
  yield [left.rest(), right.rest()];
}
