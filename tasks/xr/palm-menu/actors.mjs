// Raise the other hand palm toward the face, press its menu with the dominant index tip, turn the palm down.
export default function* (a) {
  const other = a.hand('other');
  const dominant = a.hand('dominant');
  const x = a.side('other') * 0.08;
  yield a.wait(0.3);
  yield other.pose('open');
  yield other.reach(a.at(x, 0.3, 0.1), { with: 'palm', palmFacing: 'head', duration: 0.8 });
  yield a.head.lookAt(a.tag('menu'));
  yield dominant.poke(a.tag('menu'), { depth: 0.005 });
  yield dominant.rest();
  yield other.reach(a.at(x, 0.3, 0.1), { with: 'palm', palmFacing: [0, -1, 0], duration: 0.6 });
  yield a.wait(2);
}
