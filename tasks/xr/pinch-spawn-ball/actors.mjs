// Raise the dominant hand, pinch (spawning the ball), carry it sideways, then throw it at the wall.
// Distractor: while the dominant hand carries the ball, the other hand comes up and pinches briefly. The ball
// belongs to the hand that holds it: an app that takes any hand's release as the throw drops it.
export default function* (a) {
  const hand = a.hand('dominant');
  const other = a.hand('other');
  yield a.wait(0.3);
  yield hand.reach(a.at(0, 0.3, 0.12), { with: 'pinch-point', duration: 0.8 });
  yield hand.pinch();
  yield [
    hand.reach(a.at(0.06, 0.36, 0.06), { with: 'pinch-point', duration: 0.8 }),
    a.sequence(other.reach(a.at(a.side('other') * 0.18, 0.28, 0.1), { with: 'pinch-point', duration: 0.5 }), other.pinch(), other.release()),
  ];
  yield hand.throw([0, 2.5, -3.0]);
  yield a.wait(0.3);
  yield [hand.rest(), other.rest()];
}
