/**
 * Hostile and absurd input: files that are not what the user meant (never echoed back), JSON that is
 * almost right (located by line and column), and numbers no simulation can use.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../src/json/load.js';
import { locateJsonSyntaxError } from '../../src/json/syntax.js';
import { XrsimInputError } from '../../src/errors.js';
import { MAX_SESSION_TICKS, runSession, type SessionSpec } from '../../src/index.js';
import { ROOT, tempDir, xrsim } from '../helpers/cli.js';

/** A small seeded generator, so the mutations below are the same on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('JSON syntax errors are located without quoting the text', () => {
  const valid = JSON.stringify({ id: 'x', list: [1, -2.5e-3, true, false, null, 'a\\"b\\u00e9\n'], nested: { deep: [[], {}] } }, null, 2);

  it('agrees with JSON.parse on which of thousands of mutated documents are well-formed', () => {
    const random = lcg(7);
    const alphabet = '{}[]:,"\\-+.0123456789eEtruefalsn \n\tx\u0001';
    let broken = 0;
    for (let n = 0; n < 4000; n++) {
      const chars = [...valid];
      for (let m = 1 + Math.floor(random() * 3); m > 0; m--) {
        const at = Math.floor(random() * (chars.length + 1));
        const c = alphabet[Math.floor(random() * alphabet.length)];
        const op = random();
        if (op < 0.4) chars.splice(at, 1);
        else if (op < 0.7) chars.splice(at, 0, c);
        else chars[at] = c;
      }
      const text = chars.join('');
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
        broken++;
      }
      expect(locateJsonSyntaxError(text) === null, text).toBe(parses);
    }
    expect(broken).toBeGreaterThan(2000);
  });

  it('names the line and column and what was expected, and quotes nothing', () => {
    const secret = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n';
    for (const [text, where] of [
      [secret, /at line 1, column 1 \(expected a JSON value/],
      ['{\n  "a": 1,\n  "b": hunter2\n}', /at line 3, column 8 \(expected a JSON value/],
      ['{\n  "a": 1,\n  "b": truth\n}', /at line 3, column 11 \(expected the literal true/],
      ['{"a": 1,}', /at line 1, column 9 \(expected a property name in double quotes/],
      ['{"password": "hunter2" "x": 1}', /at line 1, column 24 \(expected ',' or '}'/],
      ['[1, 2', /at line 1, column 6 \(expected ',' or '\]'/],
      ['', /\(expected a JSON value, but the document ends/],
    ] as const) {
      let error: unknown;
      try {
        parseJsonText(text, 'file.json');
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(XrsimInputError);
      const message = (error as Error).message;
      expect(message).toMatch(where);
      for (const word of ['root', 'daemon', 'nologin', 'hunter2', 'password']) expect(message).not.toContain(word);
    }
  });
});

describe('a file argument that is not the expected document is never echoed', () => {
  const dir = tempDir();
  const secretFile = join(dir, 'passwd');
  writeFileSync(secretFile, 'root:x:0:0:root:/root:/bin/bash\nsecret-user:x:1000:1000::/home/secret:/bin/sh\n');
  const jsonSecret = join(dir, 'credentials.json');
  writeFileSync(jsonSecret, JSON.stringify({ token: 'sk-live-hunter2', nested: { password: 'swordfish' } }));

  for (const [flag, base] of [
    ['--hand-model', ['run', '--task', 'physics/stack-settle']],
    ['--task', ['run']],
    ['--scene', ['run', '--task', 'physics/stack-settle']],
  ] as const) {
    it(`${flag} with a non-JSON file and with someone else's JSON exits 2 without their contents`, () => {
      for (const file of [secretFile, jsonSecret]) {
        const r = xrsim(...base, flag, file, '--json');
        expect(r.code).toBe(2);
        const text = r.stdout + r.stderr;
        expect(text).toContain(file);
        for (const word of ['root:x', 'secret-user', '/bin/bash', 'sk-live', 'hunter2', 'swordfish']) expect(text).not.toContain(word);
      }
    });
  }

  it('a device (/dev/zero) is refused as not a regular file instead of being read forever', () => {
    for (const args of [['run', '--task', '/dev/zero'], ['run', '--task', 'physics/stack-settle', '--hand-model', '/dev/zero']]) {
      const r = xrsim(...args, '--json');
      expect(r.code).toBe(2);
      expect(r.json.error.message).toBe('/dev/zero: not a regular file (expected a JSON file)');
    }
  });

  it('a stream argument that is not a stream exits 2 without its contents', () => {
    for (const command of ['inspect', 'verify']) {
      const r = xrsim(command, secretFile);
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toMatch(/not an xrsim frame stream/);
      expect(r.stdout + r.stderr).not.toContain('root:x');
    }
  });
});

describe('non-finite and absurd numbers are bad input', () => {
  const dir = tempDir();
  const task = () => JSON.parse(readFileSync(join(ROOT, 'tasks/physics/stack-settle/task.json'), 'utf8'));

  it('a task body at x = 1e308 exits 2 naming the file and the JSON path (it used to pass its validators)', () => {
    const far = task();
    far.bodies[4].position = [1e308, 0.684, 0];
    const path = join(dir, 'far.json');
    writeFileSync(path, JSON.stringify(far));
    const r = xrsim('run', '--task', path, '--json');
    expect(r.code).toBe(2);
    expect(r.json.status).toBe('errored');
    expect(r.json.error).toMatchObject({ kind: 'bad-input', file: path, jsonPath: '$.bodies[4].position[0]' });
    expect(r.json.error.message).toMatch(/number out of range \(expected a finite number from -1000000 to 1000000\)/);
  });

  it('a literal that overflows a double (1e309) is refused as not finite', () => {
    const path = join(dir, 'overflow.json');
    writeFileSync(path, JSON.stringify(task()).replace('"mass":2', '"mass":1e309'));
    const r = xrsim('run', '--task', path, '--json');
    expect(r.code).toBe(2);
    expect(r.json.error).toMatchObject({ jsonPath: '$.bodies[0].mass' });
    expect(r.json.error.message).toMatch(/not a finite number/);
  });

  it('NaN and Infinity in inline tasks, scenes, hand models and session specs name their path', async () => {
    const scene = JSON.parse(readFileSync(join(ROOT, 'scenes/empty-lab.json'), 'utf8'));
    const hand = JSON.parse(readFileSync(join(ROOT, 'hand-models/medium.json'), 'utf8'));
    const badTask = task();
    badTask.validators[2].target[1] = NaN;
    const badScene = structuredClone(scene);
    badScene.surfaces[0].position[2] = -Infinity;
    const badHand = structuredClone(hand);
    badHand.joints.wrist.radius = Infinity;
    for (const [spec, file, jsonPath] of [
      [{ task: badTask, seed: 1 }, '<inline task>', '$.validators[2].target[1]'],
      [{ task: 'physics/stack-settle', scene: badScene, seed: 1 }, '<inline scene>', '$.surfaces[0].position[2]'],
      [{ task: 'physics/stack-settle', handModel: badHand, seed: 1 }, '<inline hand model>', '$.joints.wrist.radius'],
      [{ task: 'physics/stack-settle', user: { ipd: NaN }, seed: 1 }, '<session spec>', '$.user.ipd'],
      [{ task: 'physics/stack-settle', user: { perturbation: { tremor: { amplitude: 5e6 } } }, seed: 1 }, '<session spec>', '$.user.perturbation.tremor.amplitude'],
    ] as const) {
      const result = await runSession(spec as SessionSpec);
      expect(result.status).toBe('errored');
      expect(result.error).toMatchObject({ kind: 'bad-input', file, jsonPath });
    }
  });

  it('a tick count past the stated maximum (dt = 1e-300) is refused before anything runs', () => {
    const tiny = task();
    tiny.timing = { dt: 1e-300 };
    const path = join(dir, 'tiny-dt.json');
    writeFileSync(path, JSON.stringify(tiny));
    const r = xrsim('run', '--task', path, '--json');
    expect(r.code).toBe(2);
    expect(r.json.error).toMatchObject({ kind: 'bad-input', file: path, jsonPath: '$.timing.dt' });
    expect(r.json.error.message).toContain(`at most ${MAX_SESSION_TICKS} ticks`);
  });
});
