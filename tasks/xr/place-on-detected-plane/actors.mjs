// Facing away from the table, then turning to it; once it has been seen, point at it and pinch.
// Distractor: after the placement, the other hand comes up and pinches too. One pinch places one cube: an
// app that places (or moves the cube) on every pinch, whichever hand makes it, places twice.
export default function* (a) {
  const hand = a.hand('dominant');
  const other = a.hand('other');
  yield a.wait(2);
  yield a.head.turn(0, -40);
  yield a.wait(1);
  // The hand's target ray runs from the shoulder through the index knuckle: hold the knuckle above the near
  // edge of the table so the ray goes down onto its middle.
  yield hand.reach(a.at(a.side('dominant') * 0.05, 0.14, 0.16), { with: 'index-proximal', duration: 0.8 });
  yield hand.pinch();
  yield a.wait(0.3);
  yield hand.release();
  yield [hand.rest(), other.reach(a.at(a.side('other') * 0.12, 0.14, 0.16), { with: 'index-proximal', duration: 0.6 })];
  yield other.pinch();
  yield a.wait(0.2);
  yield other.release();
  yield other.rest();
}
