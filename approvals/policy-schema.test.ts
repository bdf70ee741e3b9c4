import { ApprovalPolicySchema, ReminderScheduleSchema } from '../approvals/policy-schema';
import { approvalFacts, evaluatePolicy, globMatch, pathsInAction, type ApprovalFacts } from '../pure/approval-policy';

/** The example: cheap, only docs/, not on main. */
const docsPolicy = ApprovalPolicySchema.parse({
  rules: [
    { id: 'never-prod', when: { actions: ['deploy*production*'] }, decide: 'reject' },
    {
      id: 'cheap-docs',
      when: { max_cost_usd: 0.5, paths_under: ['docs/'], not_branches: ['main'] },
      decide: 'approve',
    },
  ],
});

const facts = (over: Partial<ApprovalFacts> = {}): ApprovalFacts => ({
  action: 'write docs/guide.md',
  reason: 'the user asked',
  role: 'L2.planner',
  paths: ['docs/guide.md'],
  cost_usd: 0.1,
  branch: 'docs-update',
  ...over,
});

describe('evaluatePolicy', () => {
  test('the first matching rule decides, and names itself', () => {
    expect(evaluatePolicy(docsPolicy, facts())).toEqual({ decision: 'approve', rule_id: 'cheap-docs' });
    expect(evaluatePolicy(docsPolicy, facts({ action: 'Deploy site to PRODUCTION now' }))).toEqual({
      decision: 'reject',
      rule_id: 'never-prod',
    });
  });

  test.each<[string, Partial<ApprovalFacts>]>([
    ['over the cost', { cost_usd: 0.51 }],
    ['an unknown cost', { cost_usd: null }],
    ['a file outside docs/', { paths: ['docs/guide.md', 'src/app.ts'] }],
    ['no paths at all', { paths: [] }],
    ['a path climbing out of docs/', { paths: ['docs/../src/app.ts'] }],
    ['a directory merely starting with docs', { paths: ['docsy/a.md'] }],
    ['on main', { branch: 'main' }],
    ['no branch named', { branch: null }],
  ])('falls through to a person with %s', (_name, over) => {
    expect(evaluatePolicy(docsPolicy, facts(over))).toBeUndefined();
  });

  test('no policy, or no rules: a person decides', () => {
    expect(evaluatePolicy(null, facts())).toBeUndefined();
    expect(evaluatePolicy(ApprovalPolicySchema.parse({}), facts())).toBeUndefined();
  });

  test('roles, and a rule without conditions matches everything', () => {
    const policy = ApprovalPolicySchema.parse({
      rules: [
        { id: 'planner', when: { roles: ['L2.planner'] }, decide: 'approve' },
        { id: 'rest', decide: 'reject' },
      ],
    });
    expect(evaluatePolicy(policy, facts())?.rule_id).toBe('planner');
    expect(evaluatePolicy(policy, facts({ role: 'L4.executor' }))?.rule_id).toBe('rest');
  });
});

describe('the policy schema', () => {
  test.each([
    [
      'a repeated rule id',
      {
        rules: [
          { id: 'a', decide: 'approve' },
          { id: 'a', decide: 'reject' },
        ],
      },
    ],
    ['an unknown condition', { rules: [{ id: 'a', when: { max_cost: 1 }, decide: 'approve' }] }],
    ['an unknown decision', { rules: [{ id: 'a', decide: 'maybe' }] }],
    ['a path climbing out', { rules: [{ id: 'a', when: { paths_under: ['../x'] }, decide: 'approve' }] }],
    ['an absolute path', { rules: [{ id: 'a', when: { paths_under: ['/etc'] }, decide: 'approve' }] }],
    ['a negative cost', { rules: [{ id: 'a', when: { max_cost_usd: -1 }, decide: 'approve' }] }],
    ['an unknown top-level field', { rule: [] }],
  ])('refuses %s', (_name, policy) => {
    expect(ApprovalPolicySchema.safeParse(policy).success).toBe(false);
  });

  test('a directory is the same with or without its trailing slash', () => {
    const policy = ApprovalPolicySchema.parse({
      rules: [{ id: 'd', when: { paths_under: ['./docs'] }, decide: 'approve' }],
    });
    expect(evaluatePolicy(policy, facts())?.rule_id).toBe('d');
  });
});

describe('the reminder schedule', () => {
  test('a full schedule parses', () => {
    expect(
      ReminderScheduleSchema.safeParse({
        remind_after_seconds: 3600,
        escalate_after_seconds: 14_400,
        escalate_to: 'role:release-managers',
        timeout_after_seconds: 86_400,
        timeout_decision: 'reject',
        timeout_answer: 'go with the default',
      }).success,
    ).toBe(true);
  });

  test.each([
    ['steps out of order', { remind_after_seconds: 10, escalate_after_seconds: 5, escalate_to: 'project_owners' }],
    ['an escalation without a target', { escalate_after_seconds: 5 }],
    ['a target without an escalation', { escalate_to: 'project_owners' }],
    ['a timeout without a default', { timeout_after_seconds: 5 }],
    ['a default without a timeout', { timeout_decision: 'reject' }],
    ['a target that is not a role', { escalate_after_seconds: 5, escalate_to: 'bob' }],
    ['zero seconds', { remind_after_seconds: 0 }],
  ])('refuses %s', (_name, schedule) => {
    expect(ReminderScheduleSchema.safeParse(schedule).success).toBe(false);
  });
});

describe('request facts', () => {
  test('paths come from written files, named paths and the action, once each, sorted', () => {
    expect(
      approvalFacts({
        action: 'write "docs/guide.md" and docs/faq.md.',
        reason: 'r',
        role: 'L2.planner',
        writtenFiles: ['docs/guide.md'],
        namedPaths: ['docs/index.md'],
        costUsd: 0.2,
      }),
    ).toEqual({
      action: 'write "docs/guide.md" and docs/faq.md.',
      reason: 'r',
      role: 'L2.planner',
      paths: ['docs/faq.md', 'docs/guide.md', 'docs/index.md'],
      cost_usd: 0.2,
      branch: null,
    });
  });

  test('plain words are not paths', () => {
    expect(pathsInAction('deploy the site to production')).toEqual([]);
    expect(pathsInAction('write hello.md')).toEqual(['hello.md']);
  });

  test('glob: * is any run, the rest literal', () => {
    expect(globMatch('write docs/*', 'write docs/a/b.md')).toBe(true);
    expect(globMatch('write *.md', 'write a.ts')).toBe(false);
    expect(globMatch('a.c', 'abc')).toBe(false);
    expect(globMatch('*a*a*a*a*b', 'a'.repeat(200))).toBe(false);
  });
});
