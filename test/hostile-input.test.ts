/**
 * Hostile and absurd input: files that are not what the user meant (never echoed back), JSON that is
 * almost right (located by line and column), and numbers no simulation can use.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../src/json/load.js';
import { locateJsonSyntaxError } from '../src/json/syntax.js';
import { XrsimInputError } from '../src/errors.js';
import { tempDir, xrsim } from './helpers/cli.js';

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

  it('a stream argument that is not a stream exits 2 without its contents', () => {
    for (const command of ['inspect', 'verify']) {
      const r = xrsim(command, secretFile);
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toMatch(/not an xrsim frame stream/);
      expect(r.stdout + r.stderr).not.toContain('root:x');
    }
  });
});
