import { httpAnswer } from '../../http/errors';

/**
 * `promise`, its refusal turned into what the API answers for it (`statusCode`, `code`, `message`): application code
 * refuses in its own words (refusals/refusal.ts), and a test that calls it directly checks the answer a client gets.
 */
export function asAnswered<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((err: unknown) => {
    const answer = httpAnswer(err);
    if (!answer) throw err;
    throw Object.assign(new Error(answer.message), { statusCode: answer.status, code: answer.code });
  });
}
