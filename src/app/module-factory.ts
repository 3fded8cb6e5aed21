/**
 * Module bodies as factories (issue 28, item 5). A program file is rewritten once per process into one
 * function that runs the module's body and returns its exports, and each session calls it. Each call makes
 * the module's state anew (its top-level bindings, functions and objects), as a fresh module instance does,
 * but the functions it makes come from the same places in one compiled function every time, and V8 shares
 * the feedback and optimised code of closures made at one place. A fresh `vm.SourceTextModule` compiles new
 * functions, which TurboFan optimises again in every session (docs/SWEEPS.md, "Fresh modules' cost").
 *
 * The rewrite keeps every line and column of the body where it was (recorded stacks carry them, and a
 * session's hash must not depend on whether it ran in a worker), so line 1 must hold nothing but imports
 * and comments: the function's header goes there. Imports of packages and built-ins move below the
 * function (imports are hoisted, so where they stand does not matter); imports of the program's own files
 * become the function's arguments; `export` keywords become spaces.
 *
 * Anything the rewrite could change the meaning of is left to fresh instances ({@link planFactory} returns
 * null): `import.meta`, `import()`, `eval`, `arguments`, namespace imports, re-exports, import attributes,
 * an exported binding assigned anywhere (a live binding), a default export whose keywords span lines. Top-level
 * `await` makes the rewritten source fail to compile, which the caller also takes as "not this file".
 */
import { parse, type Node } from 'acorn';

/** The function the rewritten module exports (named in stack traces of a module's top-level code; `sanitizeStack` drops it). */
export const MODULE_BODY = '__xrsimModuleBody';
const DEPS = '__xrsimDeps';
/** Holds a default export that is an expression, as `{ default: … }` so that an anonymous function is still named `default`. */
const DEFAULT_HOLDER = '__xd';
const DEFAULT_PREFIX = `${DEFAULT_HOLDER}={default:`;

/** What a program file becomes. */
export interface FactoryPlan {
  /** The rewritten module: `export function __xrsimModuleBody(deps) { …body…; return exports }`, then its shared imports. */
  source: string;
  /** Specifiers of the program's own files it imports, in order: the function takes their exports as its arguments. */
  programImports: string[];
  /** The names it exports, in the order the function returns them. */
  exportNames: string[];
}

/** Words that rule a file out wherever they appear (in code, strings or comments: a false alarm only costs speed). */
const RULED_OUT = /\bimport\s*\.\s*meta\b|\bimport\s*\(|\beval\b|\barguments\b|__xrsim|\b__xd\b/;

type AnyNode = Node & Record<string, unknown>;

/**
 * The factory form of `source`, or null when it must get fresh instances. `isProgramFile(specifier)` says
 * whether an import names one of the program's own files (true) or a package or built-in (false).
 */
export function planFactory(source: string, isProgramFile: (specifier: string) => boolean): FactoryPlan | null {
  if (RULED_OUT.test(source)) return null;
  let program: AnyNode;
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true }) as unknown as AnyNode;
  } catch {
    return null; // the fresh instance reports the syntax error as Node does
  }
  const text = source.split('');
  const blank = (start: number, end: number) => {
    for (let i = start; i < end; i++) if (!/[\n\r\u2028\u2029]/.test(text[i])) text[i] = ' ';
  };
  const programImports: string[] = [];
  const bindings: string[] = [];
  const sharedImports: string[] = [];
  const exported = new Map<string, string>(); // export name → expression
  let defaultHolder = false;
  for (const statement of program.body as AnyNode[]) {
    const line = (statement.loc as { start: { line: number } }).start.line;
    if (statement.type === 'ImportDeclaration') {
      if ((statement.attributes as unknown[] | undefined)?.length) return null;
      const specifier = (statement.source as AnyNode).value as string;
      let program: boolean;
      try {
        program = isProgramFile(specifier);
      } catch {
        return null; // a missing file: the fresh instance reports it as Node does
      }
      blank(statement.start, statement.end);
      if (!program) {
        sharedImports.push(`${source.slice(statement.start, statement.end)};`);
        continue;
      }
      const parts: string[] = [];
      for (const spec of statement.specifiers as AnyNode[]) {
        const local = (spec.local as AnyNode).name as string;
        if (spec.type === 'ImportNamespaceSpecifier') return null;
        const imported = spec.type === 'ImportDefaultSpecifier' ? 'default' : nameOf(spec.imported as AnyNode);
        parts.push(`${JSON.stringify(imported)}: ${local}`);
      }
      bindings.push(`{ ${parts.join(', ')} } = ${DEPS}[${programImports.length}]`);
      programImports.push(specifier);
      continue;
    }
    if (line === 1) return null; // code on the header's line would move
    if (statement.type === 'ExportAllDeclaration') return null;
    if (statement.type === 'ExportNamedDeclaration') {
      if (statement.source) return null;
      const declaration = statement.declaration as AnyNode | null;
      if (declaration) {
        blank(statement.start, declaration.start);
        for (const name of declaredNames(declaration)) exported.set(name, name);
      } else {
        blank(statement.start, statement.end);
        for (const spec of statement.specifiers as AnyNode[]) exported.set(nameOf(spec.exported as AnyNode), nameOf(spec.local as AnyNode));
      }
      continue;
    }
    if (statement.type === 'ExportDefaultDeclaration') {
      const declaration = statement.declaration as AnyNode;
      const named = (declaration.type === 'FunctionDeclaration' || declaration.type === 'ClassDeclaration') && declaration.id;
      if (named) {
        blank(statement.start, declaration.start);
        exported.set('default', (declaration.id as AnyNode).name as string);
        continue;
      }
      // `export default <expression or anonymous function>` → `__xd={default:<it>};` in the same columns.
      const keywords = source.slice(statement.start, declaration.start);
      if (keywords.length < DEFAULT_PREFIX.length || /[\n\r\u2028\u2029]/.test(keywords)) return null;
      blank(statement.start, declaration.start);
      for (let i = 0; i < DEFAULT_PREFIX.length; i++) text[statement.start + i] = DEFAULT_PREFIX[i];
      text[declaration.end - 1] += '};';
      exported.set('default', `${DEFAULT_HOLDER}.default`);
      defaultHolder = true;
    }
  }
  const assigned = assignedNames(program);
  for (const local of exported.values()) if (assigned.has(local)) return null;
  const header = [`export function ${MODULE_BODY}(${DEPS}) {`];
  if (defaultHolder) header.push(`let ${DEFAULT_HOLDER};`);
  if (bindings.length) header.push(`const ${bindings.join(', ')};`);
  const exportNames = [...exported.keys()];
  const returned = exportNames.map((name) => `${JSON.stringify(name)}: ${exported.get(name)}`).join(', ');
  return {
    source: `${header.join(' ')} ${text.join('')}\nreturn { ${returned} };\n}\n${sharedImports.join('\n')}\n`,
    programImports,
    exportNames,
  };
}

function nameOf(node: AnyNode): string {
  return (node.type === 'Literal' ? node.value : node.name) as string;
}

/** The names a top-level declaration binds. */
function declaredNames(declaration: AnyNode): string[] {
  if (declaration.type !== 'VariableDeclaration') return [(declaration.id as AnyNode).name as string];
  const names: string[] = [];
  for (const declarator of declaration.declarations as AnyNode[]) patternNames(declarator.id as AnyNode, names);
  return names;
}

/** The identifiers a binding or assignment pattern names. */
function patternNames(pattern: AnyNode | null, into: string[]): void {
  if (!pattern) return;
  switch (pattern.type) {
    case 'Identifier':
      into.push(pattern.name as string);
      break;
    case 'ObjectPattern':
      for (const property of pattern.properties as AnyNode[]) patternNames((property.type === 'RestElement' ? property.argument : property.value) as AnyNode, into);
      break;
    case 'ArrayPattern':
      for (const element of pattern.elements as (AnyNode | null)[]) patternNames(element, into);
      break;
    case 'RestElement':
      patternNames(pattern.argument as AnyNode, into);
      break;
    case 'AssignmentPattern':
      patternNames(pattern.left as AnyNode, into);
      break;
  }
}

/** Every name assigned anywhere in the file (any scope: a shadowed name is a false alarm, which only costs speed). */
function assignedNames(root: AnyNode): Set<string> {
  const names: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object' || typeof (node as AnyNode).type !== 'string') return;
    const n = node as AnyNode;
    if (n.type === 'AssignmentExpression') patternNames(n.left as AnyNode, names);
    if (n.type === 'UpdateExpression') patternNames(n.argument as AnyNode, names);
    if ((n.type === 'ForInStatement' || n.type === 'ForOfStatement') && (n.left as AnyNode).type !== 'VariableDeclaration') patternNames(n.left as AnyNode, names);
    for (const key in n) if (key !== 'loc') visit(n[key]);
  };
  visit(root);
  return new Set(names);
}
