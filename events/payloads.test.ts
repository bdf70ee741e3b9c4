import fs from 'node:fs';
import path from 'node:path';
import type { Emit } from '../workflows/emit';
import { checkPayload } from './envelope';
import { EVENT_KIND_GROUPS } from './kinds';
import { EVENT_PAYLOADS, hasContract } from './payloads';

const root = path.resolve(__dirname, '..');

/** Every `emit(role, '<kind>', …)` and `kind: '<kind>'` draft in the workflow and activity sources. */
function emittedKinds(): Map<string, string> {
  const found = new Map<string, string>();
  for (const folder of ['workflows', 'activities']) {
    for (const name of fs.readdirSync(path.join(root, folder))) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      const source = fs.readFileSync(path.join(root, folder, name), 'utf8');
      for (const match of source.matchAll(/\bemit\(\s*[\w.]+,\s*'([a-z_]+)'/g))
        found.set(match[1]!, `${folder}/${name}`);
      for (const match of source.matchAll(/draft:\s*\{[^}]*\bkind:\s*'([a-z_]+)'/g)) {
        found.set(match[1]!, `${folder}/${name}`);
      }
    }
  }
  return found;
}

describe('event catalog', () => {
  test('every kind emitted in workflows/ and activities/ has a payload contract', () => {
    const emitted = emittedKinds();
    // The scan itself must see the emits, or this test proves nothing.
    expect(emitted.size).toBeGreaterThanOrEqual(25);
    const missing = [...emitted].filter(([kind]) => !hasContract(kind)).map(([kind, file]) => `${kind} (${file})`);
    expect(missing).toEqual([]);
  });

  test('every contract is for a kind of the catalog', () => {
    const known = new Set<string>(Object.values(EVENT_KIND_GROUPS).flat());
    expect(Object.keys(EVENT_PAYLOADS).filter((kind) => !known.has(kind))).toEqual([]);
  });

  test('a contract refuses a payload of the wrong shape and keeps unknown fields', () => {
    expect(() =>
      checkPayload('gate_decision', { level_id: 'j/L3.verifier/1', attempt: 1, decision: 'maybe' }),
    ).toThrow();
    expect(() => checkPayload('heartbeat', { level_id: 'j/L4.executor/1', round: 1 })).toThrow();
    expect(checkPayload('scenario_finished', { scenario: 'build', later_field: 1 })).toEqual({
      scenario: 'build',
      later_field: 1,
    });
  });

  test('emitting is typed by kind: what the compiler refuses (`npm run typecheck`), the catalog refuses or flags', async () => {
    const sent: Array<{ kind: string; payload: Record<string, unknown> }> = [];
    const emit: Emit = async (_role, kind, payload) => {
      sent.push({ kind, payload });
      return { occurred_at: '2026-11-24T00:00:00.000Z', sequence: sent.length };
    };
    await emit('L1.team_lead', 'scenario_finished', { scenario: 'build' });
    // @ts-expect-error an unknown kind does not compile
    await emit('L1.team_lead', 'scenario_finishd', { scenario: 'build' });
    // @ts-expect-error a missing field does not compile
    await emit('L1.team_lead', 'final', { summary: 's', created_files: [] });
    // @ts-expect-error a field of the wrong type does not compile
    await emit('L4.executor', 'heartbeat', { level_id: 'j/L4.executor/1', round: '1', waiting_ms: 200 });
    // @ts-expect-error a misspelt field does not compile (at run time it would pass as a later field)
    await emit('L1.team_lead', 'scenario_finished', { scenario: 'build', scenaro: 'x' });

    const [ok, unknownKind, missing, wrongType] = sent;
    expect(() => checkPayload(ok!.kind, ok!.payload)).not.toThrow();
    expect(hasContract(unknownKind!.kind)).toBe(false);
    expect(() => checkPayload(missing!.kind, missing!.payload)).toThrow();
    expect(() => checkPayload(wrongType!.kind, wrongType!.payload)).toThrow();
  });
});
