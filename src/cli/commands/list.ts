/**
 * `xrsim list tasks|scenes`.
 */
import { ExitCode, XrsimInputError } from '../../errors.js';
import { listSceneIds, loadScene } from '../../scene/load.js';
import { listTaskIds, loadTask } from '../../task/load.js';
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
          // Each app, and the milestones it is expected to fail (none for the reference).
          apps: Object.entries(spec.apps ?? {}).map(([name, app]) => ({ name, description: app.description ?? '', expectFail: app.expectFail ?? [] })),
        };
      });
      if (json) printJson({ tasks });
      else {
        const rows = tasks.map((t) => [t.id, String(t.milestones.length), String(t.duration), t.scene, t.apps.map((a) => (a.expectFail.length ? `${a.name} (fails ${a.expectFail.join(', ')})` : a.name)).join('; ') || '–']);
        process.stdout.write(table([['id', 'milestones', 'seconds', 'scene', 'apps'], ...rows], ''));
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
