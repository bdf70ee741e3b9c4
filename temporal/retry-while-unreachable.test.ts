import { ServiceError } from '@temporalio/client';
import { retryWhileUnreachable } from './retry-while-unreachable';

/** A gRPC error as grpc-js makes it (code, details, metadata), wrapped as the schedule client wraps it. */
function grpcError(code: number, details: string): Error {
  const raw = Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });
  return new ServiceError('Failed to describe schedule', { cause: raw });
}

const noWait = async () => undefined;

test('a schedule that times out while a restarted dev server loads it is described on a later try', async () => {
  const said: string[] = [];
  let tries = 0;
  const result = await retryWhileUnreachable(
    'the schedule keel-workspace-gc',
    async () => {
      tries += 1;
      if (tries < 3) throw grpcError(4, 'DEADLINE_EXCEEDED: context deadline exceeded');
      return 'described';
    },
    { say: (line) => said.push(line), sleep: noWait },
  );
  expect({ result, tries }).toEqual({ result: 'described', tries: 3 });
  expect(said).toHaveLength(2);
  expect(said[0]).toContain('Temporal did not answer the schedule keel-workspace-gc');
});

test('an error that is not Temporal being unreachable is thrown at once', async () => {
  let tries = 0;
  await expect(
    retryWhileUnreachable(
      'the schedule keel-connector-notion',
      async () => {
        tries += 1;
        throw grpcError(3, 'INVALID_ARGUMENT: bad cron');
      },
      { sleep: noWait },
    ),
  ).rejects.toThrow('Failed to describe schedule');
  expect(tries).toBe(1);
});

test('past its budget the last unreachable error is thrown, not retried for ever', async () => {
  let tries = 0;
  await expect(
    retryWhileUnreachable(
      'the schedule keel-connector-slack',
      async () => {
        tries += 1;
        throw grpcError(14, 'UNAVAILABLE: connection refused');
      },
      { budgetMs: 0, sleep: noWait },
    ),
  ).rejects.toThrow('Failed to describe schedule');
  expect(tries).toBe(1);
});
