/**
 * Runs in every test file's context (vitest `setupFiles`): the temporary directories its tests made with
 * `tempDir` are removed when the file ends.
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from '../helpers/cli.js';

afterAll(removeTempDirs);
