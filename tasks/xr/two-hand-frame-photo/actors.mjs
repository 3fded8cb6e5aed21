// Frame a rectangle with both hands in front of the eyes, hold it, then lower the hands.
export default function* (a) {
  const left = a.hand('left');
  const right = a.hand('right');
  yield a.wait(0.3);
  yield [left.pose('frame'), right.pose('frame')];
  yield [
    left.reach(a.at(-0.11, 0.43, 0.07), { with: 'index-tip', palmFacing: [0, 0, -1], duration: 0.8 }),
    right.reach(a.at(0.11, 0.31, 0.07), { with: 'index-tip', palmFacing: [0, 0, -1], duration: 0.8 }),
  ];
  yield a.wait(1.2);
  yield [left.rest(), right.rest()];
}
