// Mistake: touch read as a per-frame boolean: a looping chime is started on every frame the finger is in
// the button, and none is ever stopped, so voices pile up past any budget.
import { chimeApp } from './chime.mjs';
export const { setup, frame } = chimeApp({ when: 'every-frame' });
