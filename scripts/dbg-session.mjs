#!/usr/bin/env node
// Development helper: steps one session and prints, per tick, a tag's position and the notable events.
// Usage: node scripts/dbg-session.mjs TASK APP SCENE HAND [TAG]
import { createSession, decodeEvents } from 'xrsim';
import { readJsonPayload } from '../dist/src/frame/json-record.js';

const [task, app, scene, hand, role = 'ball'] = process.argv.slice(2);
const s = await createSession({ task, app, scene, seed: 1, dominantHand: hand });
let errors = 0;
while (!s.done) {
  s.step();
  const events = decodeEvents(s.frame.events, s.frame.eventWords).filter((e) => !e.name.startsWith('tag') && !e.name.startsWith('contact'));
  for (const e of events) if ((e.name === 'app-error' && errors++ < 3) || e.name === 'app-event' || e.name === 'actor-failure') console.log('   ', e.name, JSON.stringify(readJsonPayload(e.payload, 0)));
  const b = s.app?.tags.pose(role);
  if (s.tick % 9 === 0 || events.some((e) => e.name !== 'app-error')) console.log(s.tick, (s.tick / 90).toFixed(2), b ? b.position.map((v) => v.toFixed(3)).join(',') : '-', events.map((e) => e.name).join(' '));
}
console.log(JSON.stringify(s.finish().milestones.map((m) => [m.id, m.passed, m.metric])));
