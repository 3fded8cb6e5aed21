/**
 * The layering checker behind `test/layering.test.ts`: it reads every import of a source tree, resolves
 * the relative ones to files, and reports imports against the layer order and file-level cycles.
 *
 * The layer order is not written here: it is the table in `docs/LAYERS.md`,
 * parsed by {@link parseLayerTable}, so the map the engineers read is the rule the test enforces.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** One import of one file, resolved to a repository path when it is relative. */
export interface ImportRef {
  /** The importing file, relative to the root, with `/` separators. */
  file: string;
  /** 1-based line of the `import`/`export` keyword. */
  line: number;
  specifier: string;
  /** The imported file relative to the root, or null for packages and `node:` modules. */
  target: string | null;
}

/** One row of the layer table: a level (lower may never import higher) and the paths it owns. */
export interface Layer {
  level: number;
  name: string;
  /** Folder prefixes (`src/sweep/`) or files (`src/sweep/rank.ts`); the longest match decides a file's layer. */
  paths: string[];
}

/**
 * Blanks comments and the text of template literals (keeping line breaks), so that only real code is
 * searched for imports. Strings are kept (import specifiers are strings) unless `strings` is `blank`. Regular expression literals are
 * skipped whole, so a quote or slash inside one cannot derail the scan.
 */
export function codeOnly(source: string, strings: 'keep' | 'blank' = 'keep'): string {
  const out = source.split('');
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== '\n') out[i] = ' ';
  };
  let i = 0;
  let lastSignificant = '';
  const regexMayStart = () => lastSignificant === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(lastSignificant);
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      if (strings === 'blank') blank(i + 1, j);
      i = j + 1;
      lastSignificant = c;
    } else if (c === '`') {
      let j = i + 1;
      while (j < source.length && source[j] !== '`') j += source[j] === '\\' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
      lastSignificant = c;
    } else if (c === '/' && regexMayStart()) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== '\n' && (inClass || source[j] !== '/')) {
        if (source[j] === '\\') j++;
        else if (source[j] === '[') inClass = true;
        else if (source[j] === ']') inClass = false;
        j++;
      }
      i = j + 1;
      lastSignificant = '/';
    } else {
      if (!/\s/.test(c)) lastSignificant = /[\w$]/.test(c) ? 'a' : c;
      // `return /re/` and `typeof /re/`: a keyword, not an operand, precedes the slash.
      if (/[\w$]/.test(c)) {
        const word = /^[\w$]+/.exec(source.slice(i, i + 12))![0];
        if (['return', 'typeof', 'case', 'in', 'of', 'void', 'throw', 'yield', 'await'].includes(word) && !/[\w$.]/.test(source[i - 1] ?? '')) lastSignificant = '(';
        i += word.length;
        continue;
      }
      i++;
    }
  }
  return out.join('');
}

const STATIC_IMPORT = /(?<![\w$.])(?:import|export)\s+(?:type\s+)?(?:[\w$*{},\s]+?\s+from\s*)?(['"])([^'"\n]+)\1/g;
const DYNAMIC_IMPORT = /(?<![\w$.])import\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g;

/** The specifiers a source file imports or re-exports (type-only and `import('literal')` included), with lines. */
export function scanImports(source: string): { line: number; specifier: string }[] {
  const code = codeOnly(source);
  // The same text with string contents blanked too: a keyword that is blank there was inside a string.
  const bare = codeOnly(source, 'blank');
  const found: { index: number; specifier: string }[] = [];
  for (const pattern of [STATIC_IMPORT, DYNAMIC_IMPORT]) {
    for (const m of code.matchAll(pattern)) if (bare[m.index] !== ' ') found.push({ index: m.index, specifier: m[2] });
  }
  found.sort((a, b) => a.index - b.index);
  return found.map(({ index, specifier }) => ({ line: code.slice(0, index).split('\n').length, specifier }));
}

function sourceFiles(root: string, dir: string): string[] {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(root, path);
    return /\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path.split(sep).join('/')] : [];
  });
}

/** Resolves `./x.js` from `file` to the TypeScript (or JavaScript) source file it names, or null if none. */
function resolveRelative(root: string, file: string, specifier: string): string {
  const base = resolve(root, dirname(file), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, join(base, 'index.ts')];
  const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? base;
  return relative(root, hit).split(sep).join('/');
}

/** Every import of every source file under `dirs` (relative to `root`). */
export function collectImports(root: string, dirs: string[]): ImportRef[] {
  return dirs.flatMap((dir) =>
    sourceFiles(root, dir).flatMap((file) =>
      scanImports(readFileSync(join(root, file), 'utf8')).map(({ line, specifier }) => ({
        file,
        line,
        specifier,
        target: specifier.startsWith('.') ? resolveRelative(root, file, specifier) : null,
      })),
    ),
  );
}

/**
 * Reads the layer table from markdown: the first table after a heading named `Layers` whose header row
 * starts `| level | layer | paths |`. Paths are the backticked names in the third column.
 */
export function parseLayerTable(markdown: string): Layer[] {
  const lines = markdown.split('\n');
  const heading = lines.findIndex((l) => /^#+\s+Layers\s*$/.test(l));
  if (heading === -1) throw new Error('no "Layers" heading in the layers document');
  const header = lines.findIndex((l, i) => i > heading && /^\|\s*level\s*\|\s*layer\s*\|\s*paths\s*\|/.test(l));
  if (header === -1) throw new Error('no "| level | layer | paths |" table under the "Layers" heading');
  const layers: Layer[] = [];
  for (let i = header + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    const [level, name, paths] = lines[i].split('|').slice(1).map((cell) => cell.trim());
    if (!/^\d+$/.test(level)) throw new Error(`layer table line ${i + 1}: the level must be a whole number, got "${level}"`);
    layers.push({ level: Number(level), name, paths: [...paths.matchAll(/`([^`]+)`/g)].map((m) => m[1]) });
  }
  return layers;
}

/** The layer owning `file`: the row with the longest matching path (a file row beats its folder's row). */
export function layerOf(file: string, layers: readonly Layer[]): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of layers) {
    for (const path of layer.paths) {
      const matches = path.endsWith('/') ? file.startsWith(path) : file === path;
      if (matches && (!best || path.length > best.length)) best = { layer, length: path.length };
    }
  }
  return best?.layer;
}

/**
 * Every file-level import cycle, one per strongly connected component of the import graph, as the imports
 * that close it: a shortest path from the component's first file (in sorted order) back to itself.
 */
export function findCycles(imports: readonly ImportRef[]): ImportRef[][] {
  const edges = new Map<string, ImportRef[]>();
  for (const ref of imports) {
    if (ref.target === null) continue;
    if (!edges.has(ref.file)) edges.set(ref.file, []);
    edges.get(ref.file)!.push(ref);
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const { target } of edges.get(node) ?? []) {
      if (!index.has(target!)) {
        visit(target!);
        low.set(node, Math.min(low.get(node)!, low.get(target!)!));
      } else if (onStack.has(target!)) low.set(node, Math.min(low.get(node)!, index.get(target!)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (edges.get(node) ?? []).some((e) => e.target === node)) components.push(component);
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0];
    // Breadth-first from the start, within the component, until an import leads back to it.
    const via = new Map<string, ImportRef>();
    const queue = [start];
    while (queue.length > 0) {
      const node = queue.shift()!;
      for (const edge of edges.get(node) ?? []) {
        if (edge.target === start) {
          const path = [edge];
          while (path[0].file !== start) path.unshift(via.get(path[0].file)!);
          return path;
        }
        if (members.has(edge.target!) && !via.has(edge.target!) && edge.target !== start) {
          via.set(edge.target!, edge);
          queue.push(edge.target!);
        }
      }
    }
    throw new Error(`no cycle through ${start}`);
  });
}

/**
 * Everything wrong with the imports under `dirs`: files in no layer, imports of a higher layer, imports of
 * files that do not exist, and cycles. Each problem is one line naming the file and line.
 */
export function checkLayering(root: string, dirs: string[], layers: readonly Layer[]): string[] {
  const imports = collectImports(root, dirs);
  const problems: string[] = [];
  const files = new Set(dirs.flatMap((dir) => sourceFiles(root, dir)));
  for (const file of [...files].sort()) {
    if (!layerOf(file, layers)) problems.push(`${file}: in no layer; add its folder to the layer table in docs/LAYERS.md`);
  }
  for (const ref of imports) {
    if (ref.target === null) continue;
    const where = `${ref.file}:${ref.line}`;
    if (!existsSync(join(root, ref.target))) {
      problems.push(`${where}: imports "${ref.specifier}", which does not exist`);
      continue;
    }
    const from = layerOf(ref.file, layers);
    const to = layerOf(ref.target, layers);
    if (from && to && to.level > from.level) {
      problems.push(`${where}: ${from.name} (level ${from.level}) imports ${ref.target}, in the higher layer ${to.name} (level ${to.level})`);
    }
  }
  for (const cycle of findCycles(imports)) {
    problems.push(`import cycle: ${cycle.map((edge) => `${edge.file}:${edge.line}`).join(' → ')} → ${cycle[0].file}`);
  }
  return problems;
}
