import { planForward, withoutCreatedBy } from './ingest-proxy';

describe('planForward', () => {
  test('a job path is checked against its job; only GET …/stream streams', () => {
    expect(planForward('GET', ['jobs', 'job-1'], undefined)).toEqual({
      preflight: { job: 'job-1', budget: false },
      submission: false,
      stream: false,
    });
    expect(planForward('GET', ['jobs', 'job-1', 'stream'], undefined).stream).toBe(true);
    expect(planForward('POST', ['jobs', 'job-1', 'cancel'], undefined).preflight).toEqual({
      job: 'job-1',
      budget: false,
    });
    expect(planForward('GET', ['jobs', 'job-1', 'files', 'a.md'], undefined).preflight.job).toBe('job-1');
  });

  test('a fork starts a job: its budget is checked, and the job it forks', () => {
    expect(planForward('POST', ['jobs', 'job-1', 'fork'], { from: { sequence: 0 } })).toEqual({
      preflight: { job: 'job-1', budget: true },
      submission: true,
      stream: false,
    });
    expect(planForward('GET', ['jobs', 'job-1', 'compare', 'job-2'], undefined).preflight).toEqual({
      job: 'job-1',
      budget: false,
    });
  });

  test('the three submission routes check the budget, and the workflow they name', () => {
    expect(planForward('POST', ['chat'], { prompt: 'x' })).toMatchObject({
      submission: true,
      preflight: { budget: true },
    });
    expect(planForward('POST', ['chat'], { prompt: 'x', workflow_id: 'wf-3' }).preflight).toEqual({
      workflow: 'wf-3',
      budget: true,
    });
    expect(planForward('POST', ['workflows'], {}).preflight).toEqual({ budget: true });
    expect(planForward('POST', ['workflows', 'wf-3', 'prompts'], {})).toMatchObject({
      submission: true,
      preflight: { workflow: 'wf-3', budget: true },
    });
  });

  test('reads and other writes are no submissions', () => {
    expect(planForward('GET', ['workflows'], undefined)).toMatchObject({
      submission: false,
      preflight: { budget: false },
    });
    expect(planForward('GET', ['workflows', 'wf-3', 'prompts'], undefined)).toMatchObject({
      submission: false,
      preflight: { workflow: 'wf-3', budget: false },
    });
    expect(planForward('POST', ['workflows', 'wf-3', 'hide'], {}).submission).toBe(false);
    expect(planForward('GET', ['models'], undefined).preflight).toEqual({ budget: false });
  });

  test("an approval's owner is looked up through its job", () => {
    expect(planForward('POST', ['approvals', 'ap-1', 'decide'], {}).approvalId).toBe('ap-1');
    expect(planForward('GET', ['approvals'], undefined).approvalId).toBeUndefined();
  });
});

describe('withoutCreatedBy', () => {
  test('drops created_by at the top level and in metadata, keeping everything else', () => {
    expect(
      withoutCreatedBy({ prompt: 'p', created_by: 'mallory', metadata: { model_tier: 'free', created_by: 'mallory' } }),
    ).toEqual({ prompt: 'p', metadata: { model_tier: 'free' } });
  });

  test('leaves bodies without it, and non-objects, as they are', () => {
    expect(withoutCreatedBy({ prompt: 'p' })).toEqual({ prompt: 'p' });
    expect(withoutCreatedBy(['a'])).toEqual(['a']);
    expect(withoutCreatedBy('text')).toBe('text');
  });
});
