import { unitsFor, CAPABILITY_CATALOG } from './catalog';
import { proposeVerticalPlan, readConfirmation } from './vertical-plan';
import { planWork } from './work-plan';
import { workType } from './work-types';

describe('unitsFor: a roadmap follows from the requirements', () => {
  it('puts the scenario first, one unit per template, tool and secret, and the verification last', () => {
    const units = unitsFor({
      name: 'site-deploy',
      requirements: { model_features: [], tools: ['deploy'], secrets: ['VERCEL_TOKEN'], templates: ['basic'] },
    });
    expect(units.map((u) => [u.key, u.kind, u.artifact])).toEqual([
      ['scenario', 'scenario', 'skills/site-deploy/scenario.md'],
      ['template-basic', 'template', 'skills/site-deploy/template-basic.md'],
      ['tool-deploy', 'tool', 'skills/site-deploy/tool-deploy.md'],
      ['secret-VERCEL_TOKEN', 'secret', 'skills/site-deploy/secret-vercel_token.md'],
      ['verify', 'verify', 'skills/site-deploy/verification.md'],
    ]);
  });

  it('gives every catalog entry unique unit keys', () => {
    for (const entry of CAPABILITY_CATALOG) {
      const keys = unitsFor(entry).map((u) => u.key);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });
});

describe('planWork', () => {
  const type = workType('product-build')!;
  const base = { type, description: '', capabilityStatus: new Map([['static-site', 'active']]), version: 1 };

  it('orders the steps with their levels, capabilities on the writing step and costs by budget', () => {
    const plan = planWork({ ...base, reason: 'created', changes: [] });
    expect(plan.steps.map((s) => s.position)).toEqual([1, 2, 3, 4, 5]);
    expect(plan.steps.filter((s) => s.capabilities.length > 0).map((s) => s.level)).toEqual(['L4.executor']);
    expect(plan.capabilities).toEqual([{ name: 'static-site', status: 'active' }]);
    expect(plan.estimated_cost_usd.free).toBe(0);
    expect(plan.estimated_cost_usd.cheap).toBeLessThan(plan.estimated_cost_usd.frontier);
  });

  it('adds each change as a step after the task, keeping earlier ones in order', () => {
    const plan = planWork({ ...base, version: 3, reason: 'b', changes: ['a', 'b'] });
    expect(plan.steps.slice(1, 4).map((s) => s.title)).toEqual([
      'write the task and its acceptance criteria',
      'adjust the task: a',
      'adjust the task: b',
    ]);
    expect(plan.version).toBe(3);
  });
});

describe('proposeVerticalPlan', () => {
  it('always proposes a site and adds capabilities the brief or the hub call for, naming the source', () => {
    const plan = proposeVerticalPlan({
      name: 'Dental clinics',
      description: 'a site they can launch',
      sources: [
        { kh_id: 'kh-1', title: 'Clinic ops', path: 'ops/clinics.md', snippet: 'weekly Slack digest of bookings' },
      ],
    });
    expect(plan.capabilities).toEqual([
      { name: 'static-site', why: 'every vertical gets a site to present its offer' },
      { name: 'vercel-deploy', why: 'named in the vertical brief' },
      { name: 'slack-digest', why: 'the knowledge hub mentions it (ops/clinics.md)' },
    ]);
    expect(plan.templates).toEqual(['static-site-basic']);
    expect(plan.designs).toEqual(['dental-clinics-landing', 'dental-clinics-brand']);
    expect(plan.sources).toEqual([{ kh_id: 'kh-1', title: 'Clinic ops', path: 'ops/clinics.md' }]);
  });
});

describe('readConfirmation', () => {
  it.each([
    ['yes', { confirmed: true }],
    ['OK.', { confirmed: true }],
    ['no, not now', { confirmed: false, note: 'no, not now' }],
    ['yes but skip the brand design', { confirmed: true, note: 'yes but skip the brand design' }],
    ['go ahead without hosting', { confirmed: true, note: 'go ahead without hosting' }],
  ])('%s', (answer, expected) => {
    expect(readConfirmation(answer)).toEqual(expected);
  });
});
