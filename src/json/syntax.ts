/**
 * Locating a JSON syntax error without quoting the text. `JSON.parse` puts the offending text in its
 * message ("Unexpected token 'r', "root:x:0:0"... is not valid JSON"), and a user who points `--hand-model`
 * at the wrong file must not see that file's contents echoed back. This scanner walks the JSON grammar
 * (RFC 8259) and says where it first breaks and what was expected there, in words of its own.
 */

/** Where JSON text first breaks the grammar: a character offset and what was expected there. */
export interface JsonSyntaxProblem {
  offset: number;
  expected: string;
}

class Broken extends Error {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {
    super(expected);
  }
}

/**
 * The first syntax error in `text`, or null when the text is well-formed JSON. Deep nesting past the
 * JavaScript stack gives null as well (the caller then reports the error without a location).
 */
export function locateJsonSyntaxError(text: string): JsonSyntaxProblem | null {
  let i = 0;
  const fail = (expected: string): never => {
    throw new Broken(i, expected);
  };
  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string) => {
    for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) fail(`the literal ${word}`);
  };
  const digits = (what: string) => {
    if (!(text[i] >= '0' && text[i] <= '9')) fail(what);
    while (text[i] >= '0' && text[i] <= '9') i++;
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits('a digit');
    if (text[i] === '.') {
      i++;
      digits('a digit after the decimal point');
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits('a digit in the exponent');
    }
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail('a closing double quote');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('no raw control characters (line breaks, tabs) inside a string: escape them');
      if (c === 0x5c) {
        i++;
        const e = text[i];
        if (e === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/^[0-9a-fA-F]$/.test(text[i] ?? '')) fail('four hex digits after \\u');
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail('a valid escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
      } else i++;
    }
  };
  const value = (): void => {
    skipSpace();
    const c = text[i];
    if (c === '{') {
      i++;
      skipSpace();
      if (text[i] === '}') return void i++;
      for (;;) {
        skipSpace();
        if (text[i] !== '"') fail('a property name in double quotes');
        string();
        skipSpace();
        if (text[i] !== ':') fail("':' after the property name");
        i++;
        value();
        skipSpace();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail("',' or '}' after a property value");
      }
    }
    if (c === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        skipSpace();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail("',' or ']' after an array element");
      }
    }
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    fail(i >= text.length ? 'a JSON value, but the document ends' : 'a JSON value (an object, array, string, number, true, false or null)');
  };
  try {
    value();
    skipSpace();
    if (i < text.length) fail('the end of the document after the top-level value');
    return null;
  } catch (err) {
    if (err instanceof Broken) return { offset: Math.min(err.offset, text.length), expected: err.expected };
    return null; // nesting deeper than the stack
  }
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset; k++) {
    if (text.charCodeAt(k) === 0x0a) {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
