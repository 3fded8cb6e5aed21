// The user reads the kiosk's panel, looks over the table, presses the start button three times, then raises
// the other hand palm up to read its menu and moves it, and looks around once more.
// Distractor: a 30° glance aside while the palm menu is up. A glance is not a turn: content that follows the
// head swings with it, while content in the room or on the palm stays where it is.
export default function* (a) {
  const hand = a.hand('dominant');
  const other = a.hand('other');
  const x = a.side('other') * 0.12;
  yield a.wait(0.3);
  yield a.head.lookAt(a.tag('panel'));
  yield a.wait(0.8);
  // The table, where the kiosk puts its badge once it has found it.
  yield a.head.lookAt(a.at(0, 0, -0.1));
  yield a.wait(1);
  yield a.head.lookAt(a.tag('badge'));
  yield a.wait(0.3);
  yield a.head.lookAt(a.tag('start-button'));
  for (let i = 0; i < 3; i++) {
    yield hand.poke(a.tag('start-button'), { depth: 0.015 });
    yield a.wait(0.5);
  }
  yield hand.rest();
  yield other.pose('open');
  yield other.reach(a.at(x, 0.45, 0.6), { with: 'palm', palmFacing: 'head', duration: 0.8 });
  yield a.head.lookAt(a.tag('hand-menu'));
  yield other.reach(a.at(x + a.side('other') * 0.15, 0.5, 0.55), { with: 'palm', palmFacing: 'head', duration: 0.6 });
  yield other.reach(a.at(x, 0.42, 0.6), { with: 'palm', palmFacing: 'head', duration: 0.6 });
  yield a.head.turn(a.side('other') * 30, -20);
  yield a.wait(0.5);
  yield a.head.lookAt(a.tag('hand-menu'));
  yield a.wait(0.3);
  yield other.rest();
  yield a.head.lookAt(a.tag('panel'));
  yield a.wait(0.5);
}
