import type { ApplicationFailure } from '@temporalio/workflow';
import { INVALID_BUDGET_DECISION, JOB_NOT_PAUSED, UNKNOWN_CALL_ID, type Interrupt } from './definitions';
import { answerRefusal, PendingInput } from './human-input';

const ask = (call_id: string): Interrupt => ({
  kind: 'ask_user',
  call_id,
  role: 'L2.architect',
  text: `question ${call_id}`,
  workflow_id: 'job-1/L2.architect/1',
});
const approval: Interrupt = { ...ask('ap-1'), kind: 'approval', approval_id: 'ap-1', text: 'deploy' };

const refusalOf = (failure: ApplicationFailure | undefined) =>
  failure && { type: failure.type, message: failure.message };

describe('answerRefusal', () => {
  test('no open question: job_not_paused', () => {
    expect(refusalOf(answerRefusal('job-1', 'call-1', []))).toEqual({
      type: JOB_NOT_PAUSED,
      message: 'job job-1 is not waiting for an answer',
    });
  });

  test('other questions open: unknown_call_id naming them', () => {
    expect(refusalOf(answerRefusal('job-1', 'call-9', ['call-1', 'call-2']))).toEqual({
      type: UNKNOWN_CALL_ID,
      message: 'job job-1 is not waiting on call call-9 (waiting on call-1, call-2)',
    });
  });

  test('the question is open: no refusal', () => {
    expect(answerRefusal('job-1', 'call-2', ['call-1', 'call-2'])).toBeUndefined();
  });
});

describe('PendingInput', () => {
  test('lists and accepts answers to open questions only, not approvals', () => {
    const pending = new PendingInput('job-1');
    pending.raise(ask('call-1'));
    pending.raise(approval);
    expect(pending.questions()).toEqual([{ call_id: 'call-1', question: 'question call-1', role: 'L2.architect' }]);
    expect(pending.size).toBe(2);
    expect(pending.refusal('call-1')).toBeUndefined();
    expect(refusalOf(pending.refusal('ap-1'))?.type).toBe(UNKNOWN_CALL_ID);
  });

  test('a question is answered at most once', () => {
    const pending = new PendingInput('job-1');
    pending.raise(ask('call-1'));
    expect(pending.take('call-1')?.call_id).toBe('call-1');
    expect(pending.take('call-1')).toBeUndefined();
    expect(refusalOf(pending.refusal('call-1'))?.type).toBe(JOB_NOT_PAUSED);
  });

  test('a cleared call is never re-opened by a late duplicate raise', () => {
    const pending = new PendingInput('job-1');
    pending.raise(ask('call-1'));
    pending.clear('call-1');
    expect(pending.raise(ask('call-1'))).toBe(false);
    expect(pending.size).toBe(0);
    expect(pending.known('call-1')).toBe(true);
    expect(pending.wasAnswered('call-1')).toBe(true);
    expect(pending.known('call-2')).toBe(false);
  });
});

describe('a budget decision', () => {
  const budget: Interrupt = {
    ...ask('budget-job-1/L2.architect/1#3.1'),
    budget: { scope: 'job', defaultRaiseUsd: 1.25, cheaperTier: 'free' },
  };

  test('takes its answers and refuses any other, naming them; is listed with its choices', () => {
    const pending = new PendingInput('job-1');
    pending.raise(budget);
    expect(pending.refusal(budget.call_id, 'raise by $3')).toBeUndefined();
    expect(pending.refusal(budget.call_id, 'stop')).toBeUndefined();
    expect(refusalOf(pending.refusal(budget.call_id, 'sure'))).toEqual({
      type: INVALID_BUDGET_DECISION,
      message: 'job job-1 waits on a budget decision: answer one of "raise by $1.25", "downgrade to free", "stop"',
    });
    expect(pending.questions()).toEqual([
      {
        call_id: budget.call_id,
        question: budget.text,
        role: budget.role,
        choices: ['raise by $1.25', 'downgrade to free', 'stop'],
      },
    ]);
  });

  test('an ordinary question still takes any answer', () => {
    const pending = new PendingInput('job-1');
    pending.raise(ask('call-1'));
    expect(pending.refusal('call-1', 'sure')).toBeUndefined();
  });
});

describe('a call id asked again by another level run', () => {
  const again = (callId: string): Interrupt => ({ ...ask(callId), workflow_id: 'job-1/L2.architect/2' });

  test('is a new wait when reopen allows it: listed, answerable, and answered once', () => {
    const pending = new PendingInput('job-1');
    pending.raise(ask('call-1'));
    pending.take('call-1');
    pending.clear('call-1');
    expect(pending.wasAnswered('call-1')).toBe(true);
    expect(pending.raise(again('call-1'), () => true)).toBe(true);
    expect(pending.questions().map((q) => q.call_id)).toEqual(['call-1']);
    expect(pending.wasAnswered('call-1')).toBe(false);
    expect(pending.refusal('call-1')).toBeUndefined();
    expect(pending.take('call-1')?.workflow_id).toBe('job-1/L2.architect/2');
    pending.clear('call-1');
    // Each run's wait is over: neither re-opens on a late duplicate.
    expect(pending.raise(again('call-1'), () => true)).toBe(false);
    expect(pending.raise(ask('call-1'), () => true)).toBe(false);
  });

  test('stays ignored when reopen says no (a job recorded before the patch), and reopen is asked only then', () => {
    const pending = new PendingInput('job-1');
    const reopen = jest.fn(() => false);
    expect(pending.raise(ask('call-1'), reopen)).toBe(true);
    pending.clear('call-1');
    expect(pending.raise(ask('call-1'), reopen)).toBe(false);
    expect(reopen).not.toHaveBeenCalled();
    expect(pending.raise(again('call-1'), reopen)).toBe(false);
    expect(reopen).toHaveBeenCalledTimes(1);
    expect(pending.size).toBe(0);
  });

  test('a clear naming no run closes the call for every run', () => {
    const pending = new PendingInput('job-1');
    pending.clear('call-1');
    expect(pending.raise(again('call-1'), () => true)).toBe(false);
  });
});
