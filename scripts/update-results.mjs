// Writes one benchmark run into bench/RESULTS.md: the headline table's results and verdicts (its targets
// stay as written), each benchmark section's details block, and the line naming the run. The prose around
// them is the engineer's to update.
//
//   npm run bench -- kernel hands depth suite sweep scale queue browser rank view hostile --json > run.out
//   node scripts/update-results.mjs run.out "2026-12-01 (22:40–23:05 UTC)" abc1234
//
// run.out is what `bench/run.ts` printed on stdout: `name: {details}` blocks, then the summary as one line.
import { readFileSync, writeFileSync } from 'node:fs';

const [outFile, when, commit] = process.argv.slice(2);
if (!outFile || !when || !commit) {
  process.stderr.write('usage: node scripts/update-results.mjs RUN_OUTPUT "DATE (TIMES UTC)" COMMIT\n');
  process.exit(2);
}
const RESULTS = new URL('../bench/RESULTS.md', import.meta.url);

/** The details of each benchmark and the summary, from the runner's stdout. */
function parseRun(text) {
  const lines = text.split('\n').filter((line) => line.length > 0);
  const summary = JSON.parse(lines.pop());
  const details = {};
  for (let i = 0; i < lines.length; i++) {
    const start = /^([a-z]+): (\{.*)$/.exec(lines[i]);
    if (!start) continue;
    const body = [start[2]];
    // A block is pretty-printed with two spaces: it ends at the first line that is a lone closing brace.
    if (start[2] !== '{}' && !start[2].endsWith('}')) while (lines[++i] !== '}') body.push(lines[i]);
    if (body.length > 1) body.push('}');
    details[start[1]] = JSON.parse(body.join('\n'));
  }
  return { summary, details };
}

/** `met` or `**not met**` for a result against a target written `≤ 1.15` or `≥ 0.9 (issue 10)`; null for none. */
function verdict(result, target) {
  const m = /^([≤≥])\s*(-?[\d.]+)/.exec(target.trim());
  if (!m || typeof result !== 'number') return null;
  const limit = Number(m[2]);
  return (m[1] === '≤' ? result <= limit : result >= limit) ? 'met' : '**not met**';
}

const { summary, details } = parseRun(readFileSync(outFile, 'utf8'));
let text = readFileSync(RESULTS, 'utf8');
const missing = [];

text = text.replace(/^All figures below come from \*\*one run\*\* on .*? at commit `[0-9a-f]+`/m, (line) => line.replace(/on .*? at commit `[0-9a-f]+`/, `on ${when}, at commit \`${commit}\``));

text = text.replace(/^\| `([a-z0-9_]+)` \| ([^|]*) \| ([^|]*) \| ([^|]*) \|$/gm, (row, key, _result, target) => {
  if (!(key in summary)) {
    missing.push(key);
    return row;
  }
  const value = summary[key];
  return `| \`${key}\` | ${value === null ? 'n/a' : value} | ${target.trim()} | ${verdict(value, target) ?? ''} |`;
});
const tabled = new Set([...text.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]));
const untabled = Object.keys(summary).filter((key) => !tabled.has(key));

for (const [name, value] of Object.entries(details)) {
  const section = new RegExp(`(## [^\\n]*\\(\`${name}\`\\)[\\s\\S]*?\`\`\`json\\n)[\\s\\S]*?(\\n\`\`\`)`);
  if (!section.test(text)) {
    missing.push(`section ${name}`);
    continue;
  }
  text = text.replace(section, (_all, head, tail) => `${head}${JSON.stringify(value, null, 1)}${tail}`);
}

writeFileSync(RESULTS, text);
if (missing.length) process.stderr.write(`not in this run (left as they were): ${missing.join(', ')}\n`);
if (untabled.length) process.stderr.write(`in the run but not in the table (add rows): ${untabled.join(', ')}\n`);
