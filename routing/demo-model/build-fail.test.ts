import type { DemoRequest } from './chat-wire';
import { BROKEN_LINK_TARGET, respond } from './respond';

const writeFile = {
  type: 'function' as const,
  function: { name: 'write_file', parameters: { type: 'object', properties: {} } },
};

function executorRequest(jobPrompt: string, context = ''): DemoRequest {
  return {
    messages: [
      { role: 'system', content: 'Keel level: L4.executor' },
      { role: 'user', content: `${context}Request:\n${jobPrompt}` },
    ],
    tools: [writeFile],
  };
}

function writtenContent(request: DemoRequest): string {
  const call = respond(request).message.tool_calls?.[0];
  expect(call?.function.name).toBe('write_file');
  return (JSON.parse(call!.function.arguments) as { content: string }).content;
}

test('#build-fail=2 breaks the written file until two builds have failed, then writes it clean', () => {
  const prompt = 'Build a landing page for a bakery #build #build-fail=2';
  expect(writtenContent(executorRequest(prompt))).toContain(BROKEN_LINK_TARGET);
  expect(
    writtenContent(executorRequest(prompt, '## Output of L3.verifier (deltas)\n- Failed builds: 1\n\n')),
  ).toContain(BROKEN_LINK_TARGET);
  const clean = writtenContent(executorRequest(prompt, '- Failed builds: 1\n- Failed builds: 2\n\n'));
  expect(clean).not.toContain(BROKEN_LINK_TARGET);
  expect(clean).toBe(
    writtenContent(executorRequest('Build a landing page for a bakery #build #build-fail=2', 'Failed builds: 9\n')),
  );
});

test('without the directive the executor never breaks the build', () => {
  expect(writtenContent(executorRequest('Build a landing page for a bakery #build'))).not.toContain(BROKEN_LINK_TARGET);
});

function reviewRequest(role: string, jobPrompt: string, attempt: number): DemoRequest {
  return {
    messages: [
      { role: 'system', content: `Keel level: ${role}\nKeel review: findings as JSON` },
      { role: 'user', content: `Attempt: ${attempt}\n\nRequest:\n${jobPrompt}` },
    ],
  };
}

const reviewOf = (request: DemoRequest) =>
  JSON.parse(respond(request).message.content!) as { verdict: string; findings: Array<{ severity: string }> };

test('#security-block=N: the security lead blocks reviews 1..N, then passes; other leads pass', () => {
  const prompt = 'Build a landing page #build #security-block=2';
  expect(reviewOf(reviewRequest('L2.security_lead', prompt, 1))).toMatchObject({
    verdict: 'fail',
    findings: [{ severity: 'blocking' }],
  });
  expect(reviewOf(reviewRequest('L2.security_lead', prompt, 2)).verdict).toBe('fail');
  expect(reviewOf(reviewRequest('L2.security_lead', prompt, 3))).toEqual({ verdict: 'pass', findings: [] });
  expect(reviewOf(reviewRequest('L2.adversarial_lead', prompt, 1))).toEqual({ verdict: 'pass', findings: [] });
  expect(reviewOf(reviewRequest('L2.adversarial_lead', 'x #adversarial-block=1', 1)).verdict).toBe('fail');
});
