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
