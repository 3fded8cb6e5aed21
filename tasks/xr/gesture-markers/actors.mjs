// Pinch three markers into the air in front of the user with the dominant hand, one after another, then open
// that hand flat to clear them. Between pinches the fingers stay loosely curled, as a person's do.
// Distractor: after the second marker the other hand comes up and opens flat. The markers belong to the hand
// that placed them: an app that clears them on any hand's open palm loses them there.
export default function* (a) {
  const hand = a.hand('dominant');
  const other = a.hand('other');
  const side = a.side('dominant');
  // Hands at rest are open: curl them loosely first, so that opening a hand later is a gesture of its own.
  yield [hand.pinch(0.4), other.pinch(0.4)];
  const spots = [
    [side * 0.02, 0.3, 0.12],
    [side * 0.1, 0.34, 0.1],
    [side * 0.18, 0.3, 0.12],
  ];
  for (let i = 0; i < spots.length; i++) {
    yield hand.reach(a.at(...spots[i]), { with: 'pinch-point', duration: 0.6 });
    yield hand.pinch();
    yield a.wait(0.2);
    yield hand.pinch(0.4);
    yield a.wait(0.2);
    if (i === 1) {
      yield other.reach(a.at(-side * 0.2, 0.32, 0.1), { with: 'palm', duration: 0.5 });
      yield [other.pinch(0), other.pose('open')];
      yield a.wait(0.6);
      yield other.pinch(0.4);
      yield other.rest({ duration: 0.5 });
    }
  }
  yield [hand.pinch(0), hand.pose('open')];
  yield a.wait(0.8);
  yield hand.rest();
}
