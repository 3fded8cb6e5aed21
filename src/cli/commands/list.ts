/**
 * `xrsim list tasks|scenes`.
 */
import { ExitCode, XrsimInputError } from '../../errors.js';
import { listSceneIds, loadScene } from '../../scene/load.js';
import { FAILURE_CATEGORIES, FAILURE_CATEGORY_IDS } from '../../task/failure-categories.js';
import { listTaskIds, loadTask } from '../../task/load.js';
import { isBrowserAppEntry } from '../../task/types.js';
import { printJson, type Command } from '../command.js';
import { table } from '../format.js';

/** `xrsim list tasks|scenes`. */
export const listCommand: Command = {
  name: 'list',
  summary: 'list the shipped tasks or scenes',
  help: `xrsim list tasks|scenes [--json]`,
  options: {},
  positionals: true,
  async run({ positionals, json }) {
    const what = positionals[0];
    if (positionals.length !== 1 || (what !== 'tasks' && what !== 'scenes')) {
      throw new XrsimInputError(`list what? got ${positionals.length === 0 ? 'nothing' : JSON.stringify(positionals.join(' '))}`, { expected: '"tasks" or "scenes"' });
    }
    if (what === 'tasks') {
      const tasks = listTaskIds().map((id) => {
        const { spec } = loadTask(id);
        return {
          id,
          title: spec.title,
          scene: spec.scene,
          scenes: spec.scenes ?? [spec.scene],
          duration: spec.duration,
          milestones: spec.validators.flatMap((v) => v.milestones.map((m) => m.id)),
          // Each app, the milestones it is expected to fail (none for the reference) and its failure category.
          // `host`: `process` (a module run in the session's process) or `browser` (a WebXR page in Chromium).
          apps: Object.entries(spec.apps ?? {}).map(([name, app]) => ({
            name,
            host: isBrowserAppEntry(app) ? ('browser' as const) : ('process' as const),
            ...(isBrowserAppEntry(app) ? { dir: app.dir, page: app.page ?? 'index.html' } : { module: app.module }),
            description: app.description ?? '',
            expectFail: app.expectFail ?? [],
            category: app.category ?? null,
            failsWithHand: app.failsWithHand ?? null,
            // The design heuristic it is built to violate (docs/TASKS.md, "Design score"), or null.
            designFlaw: app.designFlaw ?? null,
          })),
        };
      });
      // Per failure category, the adversarial apps that stand for it.
      const categories = FAILURE_CATEGORY_IDS.map((id) => ({
        id,
        description: FAILURE_CATEGORIES[id],
        apps: tasks.flatMap((t) => t.apps.filter((a) => a.category === id).map((a) => `${t.id}:${a.name}`)),
      }));
      if (json) printJson({ tasks, categories });
      else {
        const rows = tasks.map((t) => [t.id, String(t.milestones.length), String(t.duration), t.scene, t.apps.map((a) => `${a.name}${a.host === 'browser' ? ' (browser)' : ''}${a.expectFail.length ? ` [${a.category}] (fails ${a.expectFail.join(', ')})` : ''}${a.designFlaw ? ` (design: ${a.designFlaw})` : ''}`).join('; ') || '–']);
        process.stdout.write(table([['id', 'milestones', 'seconds', 'scene', 'apps'], ...rows], ''));
        process.stdout.write(`\n${table([['failure category', 'adversarial apps'], ...categories.map((c) => [c.id, String(c.apps.length)])], '')}`);
      }
    } else {
      const scenes = listSceneIds().map((id) => {
        const { spec } = loadScene(id);
        return { id, name: spec.name, size: spec.room.size, surfaces: spec.surfaces.length, props: spec.props.length, anchors: Object.keys(spec.anchors) };
      });
      if (json) printJson({ scenes });
      else process.stdout.write(table([['id', 'room (m)', 'surfaces', 'props', 'anchors'], ...scenes.map((s) => [s.id, s.size.join(' × '), String(s.surfaces), String(s.props), s.anchors.join(', ')])], ''));
    }
    return ExitCode.ok;
  },
};
