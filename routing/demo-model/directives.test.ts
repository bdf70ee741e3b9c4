import type { ChatMessage, DemoReply, DemoRequest, FunctionTool, ToolCall } from './chat-wire';
import { directivesOf, isSlow } from './directives';
import { attemptOf } from './prompt-contract';
import { respond, toolCallId } from './respond';

function tool(name: string, properties: string[]): FunctionTool {
  const schema = Object.fromEntries(properties.map((property) => [property, { type: 'string' }]));
  return { type: 'function', function: { name, parameters: { type: 'object', properties: schema } } };
}

const askUserTool = tool('ask_user', ['question']);
const approvalTool = tool('request_approval', ['action', 'reason']);
const humanTools = [askUserTool, approvalTool];

function system(role: string): ChatMessage {
  return { role: 'system', content: `Keel level: ${role}` };
}

function user(jobPrompt: string, context = ''): ChatMessage {
  return { role: 'user', content: `${context}Request:\n${jobPrompt}` };
}

function request(role: string, jobPrompt: string, extra: Partial<DemoRequest> = {}, context = ''): DemoRequest {
  return { messages: [system(role), user(jobPrompt, context)], ...extra };
}

function onlyCall(reply: DemoReply): ToolCall {
  expect(reply.finish_reason).toBe('tool_calls');
  expect(reply.message.content).toBeNull();
  expect(reply.message.tool_calls).toHaveLength(1);
  const call = reply.message.tool_calls?.[0];
  if (!call) throw new Error('expected one tool call');
  return call;
}

function textOf(reply: DemoReply): string {
  expect(reply.finish_reason).toBe('stop');
  expect(reply.message.tool_calls).toBeUndefined();
  return reply.message.content ?? '';
}

/** The request after the model's call got `answer` as its tool result: the conversation a client sends next. */
function answered(previous: DemoRequest, answer: string): DemoRequest {
  const call = onlyCall(respond(previous));
  return {
    ...previous,
    messages: [
      ...previous.messages,
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: call.id, content: answer },
    ],
  };
}

const greeting = 'Write hello.md that greets the reader';
const usualTask = textOf(respond(request('L2.architect', greeting)));

describe('directives: whole tokens, any case', () => {
  it.each(['#ask', '#ASK', 'please #Ask.', '(#ask),', '#ask\n', 'x #ask #approve'])('finds #ask in %j', (prompt) => {
    expect(directivesOf(prompt).ask).toBe(true);
  });

  it.each(['#asked', 'x#ask', '#ask-me', '#ask=1', '#ask.md', '##ask', 'ask'])('does not find #ask in %j', (prompt) => {
    expect(directivesOf(prompt).ask).toBe(false);
  });

  it('finds every directive independently', () => {
    expect(directivesOf('Write hello.md #approve #SLOW #verify-fail=2 #Look')).toEqual({
      ask: false,
      approve: true,
      slow: true,
      verifyFail: 2,
      look: true,
      unlistedCommand: false,
    });
    expect(directivesOf('Write hello.md')).toEqual({
      ask: false,
      approve: false,
      slow: false,
      verifyFail: undefined,
      look: false,
      unlistedCommand: false,
    });
    expect(directivesOf('Write hello.md #unlisted-command').unlistedCommand).toBe(true);
  });

  it.each(['#looked', '#look-around', 'x#look', '#look.md'])('does not find #look in %j', (prompt) => {
    expect(directivesOf(prompt).look).toBe(false);
  });

  it.each([
    ['#verify-fail=0', 0],
    ['#Verify-Fail=12.', 12],
    ['#verify-fail=1 then #verify-fail=3', 1],
    ['#verify-fail=-1', undefined],
    ['#verify-fail=', undefined],
    ['#verify-fail=2x', undefined],
    ['#verify-fail=1.5', undefined],
    ['#verify-fail', undefined],
  ])('reads #verify-fail=N from %j as %p (a non-negative integer; the first wins)', (prompt, expected) => {
    expect(directivesOf(prompt).verifyFail).toBe(expected);
  });

  it.each([
    ['#cost=0.25', 0.25],
    ['Write hello.md #COST=2.', 2],
    ['#cost=0', 0],
    ['#cost=0.5 then #cost=9', 0.5],
    ['#cost=-1', undefined],
    ['#cost=', undefined],
    ['#cost=1.5x', undefined],
    ['#cost=1.2.3', undefined],
    ['#cost', undefined],
  ])('reads #cost=<usd> from %j as %p (a non-negative decimal; the first wins)', (prompt, expected) => {
    expect(directivesOf(prompt).cost).toBe(expected);
  });
});

describe('directives: only the job prompt counts', () => {
  it('ignores directives in the context above the Request: marker', () => {
    const context = '## Output of L1.team_lead\nThe user said #ask #approve #slow #verify-fail=9\n\n';
    const reply = respond(request('L2.architect', greeting, { tools: humanTools }, context));
    expect(textOf(reply)).toBe(usualTask);
    expect(isSlow(request('L1.team_lead', greeting, {}, context))).toBe(false);
  });
});

describe('#ask', () => {
  const prompt = `${greeting} #ask`;
  const asking = request('L2.architect', prompt, { tools: [askUserTool] });

  it('asks one deterministic ask_user question at L2 when the tool is offered', () => {
    const call = onlyCall(respond(asking));
    const args = '{"question":"Which tone should hello.md use: formal or friendly?"}';
    expect(call).toEqual({
      id: toolCallId('ask_user', args),
      type: 'function',
      function: { name: 'ask_user', arguments: args },
    });
    expect(respond(structuredClone(asking))).toEqual(respond(asking));
  });

  it('answers the usual task plus a Tone line once the human answered', () => {
    const task = textOf(respond(request('L2.architect', prompt)));
    expect(textOf(respond(answered(asking, 'friendly')))).toBe(`${task}\nTone: friendly.`);
  });

  it('keeps the Tone line on one line and says when the answer was blank', () => {
    expect(textOf(respond(answered(asking, '  warm,\n  but  brief ')))).toMatch(/\nTone: warm, but brief\.$/);
    expect(textOf(respond(answered(asking, '   ')))).toMatch(/\nTone: no answer given\.$/);
  });

  it('is ignored without the ask_user tool, or when tool_choice rules it out', () => {
    const task = textOf(respond(request('L2.architect', prompt)));
    expect(textOf(respond(request('L2.architect', prompt, { tools: [approvalTool] })))).toBe(task);
    expect(textOf(respond(request('L2.architect', prompt, { tools: [askUserTool], tool_choice: 'none' })))).toBe(task);
  });

  it.each(['L1.team_lead', 'L3.verifier', 'L4.executor', 'reviewer'])('is ignored at %s', (role) => {
    const calls = respond(request(role, prompt, { tools: [askUserTool] })).message.tool_calls ?? [];
    expect(calls.map((call) => call.function.name)).not.toContain('ask_user');
  });

  it('asks again when the only answer came before the last user message', () => {
    const earlier = answered(asking, 'formal');
    const again: DemoRequest = { ...earlier, messages: [...earlier.messages, user(prompt)] };
    expect(onlyCall(respond(again)).function.name).toBe('ask_user');
  });

  it('does not take a result for another call as the answer', () => {
    const call = onlyCall(respond(asking));
    const other: DemoRequest = {
      ...asking,
      messages: [
        ...asking.messages,
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_someone_else', content: 'formal' },
      ],
    };
    expect(onlyCall(respond(other)).function.name).toBe('ask_user');
  });
});

describe('#approve', () => {
  const prompt = `${greeting} #approve`;
  const approving = request('L2.architect', prompt, { tools: [approvalTool] });
  const task = textOf(respond(request('L2.architect', prompt)));

  it('requests approval to write the target file at L2 when the tool is offered', () => {
    const call = onlyCall(respond(approving));
    expect(call.function.name).toBe('request_approval');
    expect(call.id).toBe(toolCallId('request_approval', call.function.arguments));
    expect(JSON.parse(call.function.arguments)).toEqual({
      action: 'write hello.md',
      reason: 'The request asks for a human approval (#approve) before hello.md is written.',
    });
  });

  it.each(['approved', 'Approved by alice: looks fine', '  APPROVED'])('answers as usual after %j', (answer) => {
    expect(textOf(respond(answered(approving, answer)))).toBe(task);
  });

  it.each([
    ['rejected: too risky', 'too risky'],
    ['Rejected   by bob,\nnot today ', 'by bob, not today'],
    ['REJECTED - wrong file', 'wrong file'],
    ['rejected', 'no reason given'],
  ])('withdraws the task after %j', (answer, reason) => {
    expect(textOf(respond(answered(approving, answer)))).toBe(`Task withdrawn: the approval was rejected (${reason}).`);
  });

  it('keeps the gate closed for an answer that is neither approved nor rejected', () => {
    expect(textOf(respond(answered(approving, 'maybe later')))).toBe(
      'Task withdrawn: the approval was rejected (maybe later).',
    );
  });

  it('is ignored without the request_approval tool', () => {
    expect(textOf(respond(request('L2.architect', prompt, { tools: [askUserTool] })))).toBe(task);
  });

  it('is ignored at L4, which writes the file as usual', () => {
    const writeFile = tool('write_file', ['path', 'content']);
    const reply = respond(request('L4.executor', prompt, { tools: [approvalTool, writeFile] }));
    expect(onlyCall(reply).function.name).toBe('write_file');
  });
});

describe('#ask with #approve', () => {
  const prompt = `${greeting} #approve #ask`;
  const start = request('L2.architect', prompt, { tools: humanTools });
  const task = textOf(respond(request('L2.architect', prompt)));

  it('asks first, then requests approval, then answers with the tone', () => {
    expect(onlyCall(respond(start)).function.name).toBe('ask_user');
    const asked = answered(start, 'formal');
    expect(onlyCall(respond(asked)).function.name).toBe('request_approval');
    expect(textOf(respond(answered(asked, 'approved')))).toBe(`${task}\nTone: formal.`);
  });

  it('withdraws the task, without Task or Acceptance lines, when the approval is rejected', () => {
    const reply = textOf(respond(answered(answered(start, 'formal'), 'rejected: not now')));
    expect(reply).toBe('Task withdrawn: the approval was rejected (not now).');
  });

  it('requests approval at once when only request_approval is offered', () => {
    expect(onlyCall(respond(request('L2.architect', prompt, { tools: [approvalTool] }))).function.name).toBe(
      'request_approval',
    );
  });
});

describe('#verify-fail=N', () => {
  const written = '## Output of L4.executor\nWrote hello.md.\n\n';
  const verdict = (prompt: string, context: string): unknown =>
    JSON.parse(textOf(respond(request('L3.verifier', prompt, {}, context)))) as unknown;
  const closingDelta = { verdict: 'fail', deltas: ['add a closing line to hello.md'] };

  it('fails with a concrete delta while the attempt is at most N, then applies the usual rule', () => {
    const prompt = `${greeting} #verify-fail=2`;
    expect(verdict(prompt, `Attempt: 1\n${written}`)).toEqual(closingDelta);
    expect(verdict(prompt, `Attempt: 2\n${written}`)).toEqual(closingDelta);
    expect(verdict(prompt, `Attempt: 3\n${written}`)).toEqual({ verdict: 'pass', deltas: [] });
    expect(verdict(prompt, 'Attempt: 3\nNothing yet.\n')).toEqual({ verdict: 'fail', deltas: ['write hello.md'] });
  });

  it('counts a missing Attempt line as attempt 1', () => {
    expect(verdict(`${greeting} #verify-fail=1`, written)).toEqual(closingDelta);
    expect(verdict(`${greeting} #verify-fail=0`, written)).toEqual({ verdict: 'pass', deltas: [] });
  });

  it('answers the exact JSON shape', () => {
    expect(textOf(respond(request('L3.verifier', `${greeting} #verify-fail=1`)))).toBe(
      '{"verdict":"fail","deltas":["add a closing line to hello.md"]}',
    );
  });

  it('is ignored at other levels', () => {
    const prompt = `${greeting} #verify-fail=5`;
    expect(textOf(respond(request('L2.architect', prompt)))).toMatch(/^Task: /);
    expect(textOf(respond(request('L1.team_lead', prompt)))).toMatch(/^Plan for hello\.md:/);
  });
});

describe('attemptOf: the Attempt: <k> line Keel writes above the request', () => {
  it.each([
    ['', 1],
    ['Attempt: 3\n', 3],
    ['## Retry\n  Attempt:2 of 4\n', 2],
    ['Attempt: 1\n## Output of L3.verifier\nAttempt: 4\n', 4],
    ['attempt: 5\n', 1],
    ['Previous Attempt: 5\n', 1],
    ['Attempt: two\n', 1],
  ])('reads %j as attempt %p', (context, attempt) => {
    expect(attemptOf(context)).toBe(attempt);
  });

  it('does not read an Attempt line from the job prompt', () => {
    const reply = textOf(respond(request('L3.verifier', `${greeting} #verify-fail=1\nAttempt: 2`)));
    expect(JSON.parse(reply)).toEqual({ verdict: 'fail', deltas: ['add a closing line to hello.md'] });
  });
});

describe('#slow', () => {
  it('is found in the last user message job prompt by isSlow', () => {
    expect(isSlow(request('L4.executor', `${greeting} #slow`))).toBe(true);
    expect(isSlow({ messages: [{ role: 'user', content: 'just chat #SLOW' }] })).toBe(true);
    expect(isSlow(request('L4.executor', greeting))).toBe(false);
    expect(isSlow({ messages: [user(`${greeting} #slow`), user(greeting)] })).toBe(false);
  });

  it('does not change the reply: respond stays pure and the server applies the delay', () => {
    expect(respond(request('L1.team_lead', `${greeting} #slow`)).message).toEqual(
      respond(request('L1.team_lead', greeting)).message,
    );
  });
});

describe('#mcp', () => {
  const writeTool = tool('write_file', ['path', 'content']);

  test('parses the server, the tool and URL-encoded arguments; trailing punctuation is not a value', () => {
    expect(directivesOf('Write a.md #mcp=tickets/create_ticket?title=Hello%20there&id=T-1.').mcp).toEqual({
      name: 'mcp__tickets__create_ticket',
      args: { title: 'Hello there', id: 'T-1' },
    });
    expect(directivesOf('#mcp=docs/search').mcp).toEqual({ name: 'mcp__docs__search', args: {} });
    expect(directivesOf('#mcp=nothing').mcp).toBeUndefined();
  });

  test('the executor calls the tool first (offered or not), then goes on and names its answer', () => {
    const first = request('L4.executor', `${greeting} #mcp=tickets/create_ticket?title=Hi`, { tools: [writeTool] });
    const call = onlyCall(respond(first));
    expect(call.function).toEqual({ name: 'mcp__tickets__create_ticket', arguments: '{"title":"Hi"}' });
    const next = answered(first, 'ticket T-1 created: Hi\nmore');
    expect(onlyCall(respond(next)).function.name).toBe('write_file');
    const done = answered(next, 'wrote hello.md');
    expect(textOf(respond(done))).toBe('Wrote hello.md.\nMCP mcp__tickets__create_ticket: ticket T-1 created: Hi');
  });

  test('a level offered no tools ignores it', () => {
    expect(respond(request('L4.executor', `${greeting} #mcp=tickets/create_ticket`)).finish_reason).toBe('stop');
  });
});
