// Raise the other hand palm toward the face, press its menu with the dominant index tip, turn the palm down.
// Distractor: the index first hovers 2.5 cm in front of the menu and draws back. A hover is not a press: an
// app that counts any overlap with the menu's box counts two.
export default function* (a) {
  const other = a.hand('other');
  const dominant = a.hand('dominant');
  const x = a.side('other') * 0.08;
  yield a.wait(0.3);
  yield other.pose('open');
  yield other.reach(a.at(x, 0.3, 0.1), { with: 'palm', palmFacing: 'head', duration: 0.8 });
  yield a.head.lookAt(a.tag('menu'));
  // The hover (the distractor), then the press.
  yield dominant.poke(a.tag('menu'), { depth: -0.025 });
  yield dominant.poke(a.tag('menu'), { depth: 0.005 });
  yield dominant.rest();
  yield other.reach(a.at(x, 0.3, 0.1), { with: 'palm', palmFacing: [0, -1, 0], duration: 0.6 });
  yield a.wait(2);
}
