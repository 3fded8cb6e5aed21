/**
 * Agent actors (`a.agent`): the reference agent finds a control whose place the seed decides; every answer
 * is recorded, so verify, replay and a re-run with `replay:STREAM` are the same session without asking the
 * agent; a different answer is a named divergence; no agent, or an agent that cannot answer, is `errored`;
 * a malformed answer and an absent control are actor-failures that fail the milestones.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { commandAgent, createSession, decodeEvents, runSession, verifyStream, type SessionSpec } from '../src/index.js';
import { EventType } from '../src/frame/events.js';
import { readJsonPayload } from '../src/frame/json-record.js';
import { replayStream } from '../src/replay/replay.js';
import { referenceDecision } from '../src/actors/reference-agent.js';
import { checkedAgent } from '../src/session/agents.js';
import type { AgentRequest } from '../src/actors/agent-protocol.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

const TASK = 'xr/find-control';
const FIXTURES = join(ROOT, 'test/fixtures/agent');
const node = (script: string) => `"${process.execPath}" "${join(FIXTURES, script)}"`;

/** Runs a session and collects its agent decisions and actor failures. */
async function runWithEvents(spec: SessionSpec) {
  const decisions: { tick: number; answer: unknown }[] = [];
  const failures: { step: string; reason: string }[] = [];
  // runSession: an errored session (the agent's failure) is a result, as every runner reports it.
  const result = await runSession(spec, {
    onFrame(frame) {
      for (const e of decodeEvents(frame.events, frame.eventWords)) {
        if (e.type === EventType.AgentDecision) decisions.push({ tick: frame.tick, answer: readJsonPayload<{ answer: unknown }>(e.payload, 0).answer });
        if (e.type === EventType.ActorFailure) failures.push(readJsonPayload(e.payload, 0));
      }
    },
  });
  return { result, decisions, failures };
}

describe('the reference agent', () => {
  it('finds and presses the settings button wherever the seed puts it, with either hand, in both rooms', async () => {
    const places = new Set<string>();
    for (let seed = 1; seed <= 8; seed++) {
      for (const dominantHand of ['right', 'left'] as const) {
        for (const scene of ['empty-lab', 'office']) {
          const { result, decisions } = await runWithEvents({ task: TASK, seed, dominantHand, scene });
          expect(result.status, `seed ${seed} ${dominantHand} ${scene}: ${JSON.stringify(result.milestones.filter((m) => !m.passed))}`).toBe('passed');
          expect(decisions.map((d) => (d.answer as { verb: string }).verb)).toEqual(['lookAt', 'poke', 'done']);
        }
      }
      const session = await createSession({ task: TASK, seed });
      await session.run({ onFrame: (frame) => void (frame.tick === 10 && places.add(JSON.stringify(session.app!.tags.pose('settings-button')!.position.map((v) => v.toFixed(3))))) });
    }
    expect(places.size, 'the layout varies with the seed').toBe(8);
  }, 120_000);

  it('answers fail, naming what it looked for, when the control is absent: an actor-failure, and the milestones fail', async () => {
    const { result, failures } = await runWithEvents({ task: TASK, app: join(FIXTURES, 'no-settings.mjs'), seed: 2 });
    expect(result.status).toBe('failed');
    expect(result.score).toBe(0);
    expect(result.actorFailures).toBe(1);
    expect(result.firstActorFailure).toMatchObject({ step: 'a.agent("press the settings button")', reason: expect.stringMatching(/gave up/) });
    // xrsim run says so, in its text and in --json.
    const run = xrsim('run', '--task', TASK, '--app', join(FIXTURES, 'no-settings.mjs'), '--seed', '2');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/ {2}actor failures: 1 \(the first at tick \d+, in a\.agent\("press the settings button"\): decision \d+ .*gave up: no tagged object is a "settings button"/);
    expect(xrsim('run', '--task', TASK, '--app', join(FIXTURES, 'no-settings.mjs'), '--seed', '2', '--json').json).toMatchObject({ actorFailures: 1, firstActorFailure: { reason: expect.stringMatching(/gave up/) } });
    expect(failures).toEqual([{ step: 'a.agent("press the settings button")', reason: expect.stringMatching(/^decision \d+ \(step \d of a\.agent\("press the settings button"\)\): the agent \(reference\) gave up: no tagged object is a "settings button" \(tags: .*help-button/) }]);
  });

  it('reaches and pinches for "grab", and looks first only at what is off to the side', () => {
    const request: AgentRequest = {
      instruction: 'grab the red cube', task: 't', decision: 0, step: 1, maxSteps: 5, tick: 1, time: 0, dominantHand: 'right',
      head: { position: [0, 1.6, 0], rotation: [0, 0, 0, 1] }, hands: { left: [0, 0, 0], right: [0, 0, 0] },
      tags: [{ role: 'red-cube', id: 'cube:1', position: [0, 1.55, -0.5], rotation: null }, { role: 'blue-cube', id: 'cube:2', position: [0.5, 1.5, -0.5], rotation: null }],
      verbs: [], history: [], views: 0, images: [],
    };
    expect(referenceDecision(request)).toEqual({ verb: 'reach', target: { tag: 'red-cube' } });
    const reached = { ...request, history: [{ step: 1, action: { verb: 'reach' }, outcome: 'done' as const }] };
    expect(referenceDecision(reached)).toEqual({ verb: 'pinch' });
    expect(referenceDecision({ ...request, instruction: 'press the blue cube' })).toEqual({ verb: 'lookAt', target: { tag: 'blue-cube' } });
    expect(referenceDecision({ ...request, instruction: 'press the cube' })).toEqual({ verb: 'poke', target: { tag: 'red-cube' } });
    expect(referenceDecision({ ...request, instruction: 'wave at the cube' })).toMatchObject({ verb: 'fail' });
  });
});

describe('recorded decisions', () => {
  it('replay without asking the agent: verify, replay and a re-run with replay:STREAM give the same session', async () => {
    const dir = tempDir();
    const path = join(dir, 'find.xrs');
    const first = await runSession({ task: TASK, seed: 5, dominantHand: 'left', record: { path } });
    expect(first.status).toBe('passed');
    const verified = await verifyStream(path);
    expect(verified.identical).toBe(true);
    expect(verified.sessionHash.rerun).toBe(first.hash);
    const replayed = await replayStream(path, { app: 'reference' });
    expect(replayed.identical).toBe(true);
    // The task names the reference agent; the recording answers instead, and gives the same session.
    const again = await runSession({ task: TASK, seed: 5, dominantHand: 'left', agent: `replay:${path}` });
    expect(again.hash).toBe(first.hash);
    // Asked again, the reference agent answers the same: no divergence.
    expect((await verifyStream(path, {}, { agent: 'reference' })).identical).toBe(true);
  }, 60_000);

  it('name a divergence when an agent asked again answers otherwise, or when the session asks what the recording never held', async () => {
    const dir = tempDir();
    const path = join(dir, 'find.xrs');
    await runSession({ task: TASK, seed: 5, record: { path } });
    const report = await verifyStream(path, {}, { agent: node('presses-help.mjs') });
    expect(report.identical).toBe(false);
    expect(report.firstDivergence).toMatchObject({ channel: 'agent', tick: expect.any(Number) });
    expect(report.firstDivergence!.detail).toMatch(/agent decision 0 at tick \d+ \(step 1 of "press the settings button"\) differs: the recording has \{"target":\{"tag":"settings-button"\},"verb":"lookAt"\}/);
    // Another seed is another session: its first decision is not at the recorded tick.
    const other = await runSession({ task: TASK, seed: 6, agent: `replay:${path}` });
    expect(other.status).toBe('errored');
    expect(other.error).toMatchObject({ kind: 'agent' });
  }, 60_000);
});

describe('verify --agent compares actions', () => {
  const request = { tick: 5, decision: 2, step: 1, instruction: 'press it' } as AgentRequest;
  const fixed = (answer: unknown) => ({ name: 'fixed', decide: () => answer });

  it('not the free text of their reasons', () => {
    const live = checkedAgent(fixed({ verb: 'done', reason: 'the button lit up' }), fixed({ reason: 'pressed it', verb: 'done' }));
    expect(live.decide(request)).toEqual({ verb: 'done', reason: 'the button lit up' });
    const gaveUp = checkedAgent(fixed({ verb: 'fail', reason: 'not found' }), fixed({ verb: 'fail', reason: 'no such control' }));
    expect(() => gaveUp.decide(request)).not.toThrow();
  });

  it('and another action, or done for fail, is a divergence naming the decision', () => {
    const other = checkedAgent(fixed({ verb: 'poke', target: { tag: 'b' } }), fixed({ verb: 'poke', target: { tag: 'a' } }));
    expect(() => other.decide(request)).toThrow(/agent decision 2 at tick 5 \(step 1 of "press it"\) differs/);
    const done = checkedAgent(fixed({ verb: 'done', reason: 'x' }), fixed({ verb: 'fail', reason: 'x' }));
    expect(() => done.decide(request)).toThrow(/differs/);
  });
});

describe('agents that cannot answer, and answers that are not actions', () => {
  it('no agent configured: the session is errored with how to give one, never passed', async () => {
    const result = await runSession({ task: join(FIXTURES, 'without-agent.task.json'), seed: 1 });
    expect(result.status).toBe('errored');
    expect(result.error?.kind).toBe('agent');
    expect(result.error?.message).toMatch(/asks an agent to "press the settings button", but no agent is configured: give one with --agent CMD/);
  });

  it('a scripted agent answering a verb outside the vocabulary errors the session (kind agent), never charged to the app', async () => {
    const { result, failures } = await runWithEvents({ task: TASK, seed: 1, agent: node('jumps.mjs'), agentDir: tempDir() });
    expect(result.status).toBe('errored');
    expect(result.error).toMatchObject({
      kind: 'agent',
      message: expect.stringMatching(/^decision 0 \(step 1 of a\.agent\("press the settings button"\)\): the agent .* answered what is not an action: "verb" must be one of reach, poke, pinch, release, lookAt, press, done, fail, got "jump"/),
    });
    // No actor-failure is charged to the app: the session ended in the decision's tick.
    expect(failures).toEqual([]);
    // xrsim run says so, in its text and in --json.
    const run = xrsim('run', '--task', TASK, '--agent', node('jumps.mjs'), '--json');
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ status: 'errored', error: { kind: 'agent', message: expect.stringMatching(/decision 0 .* got "jump"/) } });
  });

  it('an answer naming a tag the request did not list is the agent\'s failure too', async () => {
    const agent = `node -e "console.log(JSON.stringify({ verb: 'poke', target: { tag: 'no-such-role' } }))"`;
    const { result, failures } = await runWithEvents({ task: TASK, seed: 1, agent, agentDir: tempDir() });
    expect(result.status).toBe('errored');
    expect(result.error).toMatchObject({ kind: 'agent', message: expect.stringMatching(/names the tag "no-such-role", which the request did not list \(its tags: .*settings-button/) });
    expect(failures).toEqual([]);
  });

  it('an agent command that fails is errored, with its exit code; xrsim run exits 1 and says so', () => {
    const run = xrsim('run', '--task', TASK, '--agent', 'echo broken >&2; exit 3', '--json');
    expect(run.code).toBe(1);
    expect(run.json.status).toBe('errored');
    expect(run.json.error).toMatchObject({ kind: 'agent', message: expect.stringMatching(/the agent exited with code 3 at decision 0 \(broken\)/) });
  });

  it('an agent that never reads stdin is judged by its exit status and answer, not by our unread write (EPIPE)', () => {
    // A request larger than a pipe's buffer: the write can only finish if the agent reads, so EPIPE is certain.
    const request = { decision: 0, views: 0, padding: 'x'.repeat(1 << 18) } as unknown as AgentRequest;
    const fromFile = commandAgent(`exec 0<&-; node -e "const r = require(process.env.XRSIM_AGENT_REQUEST); console.log(JSON.stringify({ verb: 'done', length: r.padding.length }))"`, { dir: tempDir() });
    expect(fromFile.decide(request)).toEqual({ verb: 'done', length: 1 << 18 });
    const failing = commandAgent('exec 0<&-; echo broken >&2; exit 3', { dir: tempDir() });
    expect(() => failing.decide(request)).toThrow(/the agent exited with code 3 at decision 0 \(broken\)/);
  });

  it('an agent command is given the request and the user’s view, and its answers drive the hand', async () => {
    const dir = tempDir();
    const run = xrsim('run', '--task', TASK, '--seed', '4', '--agent', node('presses-help.mjs'), '--out', join(dir, 'help.xrs'), '--json');
    // It pressed help, not settings: the app's wrong-control event fails the milestones.
    expect(run.json.status).toBe('failed');
    expect(run.json.milestones.find((m: { id: string }) => m.id === 'opens-settings').passed).toBe(false);
    const request = JSON.parse(readFileSync(join(dir, 'help.agent', 'decision0-request.json'), 'utf8')) as AgentRequest;
    expect(request).toMatchObject({ instruction: 'press the settings button', task: TASK, decision: 0, step: 1, maxSteps: 6, views: 1 });
    expect(request.tags.map((t) => t.role).sort()).toEqual(['close-button', 'help-button', 'settings-button', 'volume-button']);
    expect(request.images).toEqual([{ path: join(dir, 'help.agent', 'decision0-head.png'), width: 320, height: 240, camera: 'head' }]);
    expect(readFileSync(request.images[0].path).subarray(1, 4).toString()).toBe('PNG');
    expect(existsSync(join(dir, 'help.agent', 'decision1-request.json'))).toBe(true);
    // verify gives the recorded answers back without running the command.
    expect(xrsim('verify', join(dir, 'help.xrs')).code).toBe(0);
  }, 60_000);
});
