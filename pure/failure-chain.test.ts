import { failureChain } from './failure-chain';

test('walks a failure and its causes, outermost first', () => {
  const activity = { type: 'BudgetExceeded', message: 'spent too much', details: [0.5] };
  const child = { message: 'child failed', cause: activity };
  const job = { message: 'workflow failed', cause: child };
  expect([...failureChain(job)]).toEqual([job, child, activity]);
  expect([...failureChain(undefined)]).toEqual([]);
});
