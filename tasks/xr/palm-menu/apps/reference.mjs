// The menu floats 3 cm off the palm centre and shows only while the palm faces the eyes.
import { palmMenu } from './menu.mjs';
export const { setup, frame } = palmMenu();
