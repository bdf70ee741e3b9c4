import type { ChatMessage, DemoRequest, FunctionTool } from './chat-wire';
import { DEMO_MODEL_DISPLAY_NAME, DEMO_MODEL_ID, demoFileFor, estimateTokens, respond, toolCallId } from './respond';

const writeFileTool: FunctionTool = {
  type: 'function',
  function: {
    name: 'write_file',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
};

function system(role: string): ChatMessage {
  return { role: 'system', content: `You are part of Keel.\nKeel level: ${role}\nBe brief.` };
}

function user(jobPrompt: string, context = ''): ChatMessage {
  return { role: 'user', content: `${context}Request:\n${jobPrompt}` };
}

function ask(role: string | undefined, userMessage: ChatMessage, extra: Partial<DemoRequest> = {}): DemoRequest {
  return { messages: role === undefined ? [userMessage] : [system(role), userMessage], ...extra };
}

function textOf(request: DemoRequest): string {
  const reply = respond(request);
  expect(reply.finish_reason).toBe('stop');
  expect(reply.message.tool_calls).toBeUndefined();
  return reply.message.content ?? '';
}

describe('model identity', () => {
  it('is keel-demo, shown as the offline demo model', () => {
    expect(DEMO_MODEL_ID).toBe('keel-demo');
    expect(DEMO_MODEL_DISPLAY_NAME).toBe('offline demo model');
  });
});

describe('demoFileFor: target path', () => {
  it.each([
    ['Write hello.md that greets the reader', 'hello.md'],
    ['Put an intro in docs/intro.txt.', 'docs/intro.txt'],
    ['Create `src/app.ts` and then notes.md', 'src/app.ts'],
    ['Create "./notes/todo.md", please', 'notes/todo.md'],
    ['Summarise the project, e.g. goals and v1.2 scope', 'output.md'],
    ['Fill .env with defaults', 'output.md'],
    ['See https://example.com/page.html and write summary.md', 'summary.md'],
    ['Just say something nice', 'output.md'],
    ['', 'output.md'],
  ])('%j → %s', (request, path) => {
    expect(demoFileFor(request).path).toBe(path);
  });

  it.each([
    ['Write ../secret.md', 'a parent segment'],
    ['Write docs/../../etc/x.md', 'a parent segment deeper in'],
    ['Write /etc/motd.txt', 'an absolute path'],
  ])('falls back to output.md for %j (%s), not to a later token', (request) => {
    expect(demoFileFor(`${request} and also ok.md`).path).toBe('output.md');
  });
});

describe('demoFileFor: content', () => {
  it('titles the file from its name and greets when asked to', () => {
    expect(demoFileFor('Write hello.md that greets the reader')).toEqual({
      path: 'hello.md',
      content: '# Hello\n\nHello, reader! Welcome.\n',
    });
  });

  it.each(['greet', 'Greets', 'GREETING', 'hello', 'Welcome'])('treats the word %s as a greeting', (word) => {
    expect(demoFileFor(`notes.md: ${word} them`).content).toBe('# Notes\n\nHello, reader! Welcome.\n');
  });

  it('does not treat words that merely contain a greeting word as one', () => {
    expect(demoFileFor('notes.md about othello').content).toContain('This file was written for the request');
  });

  it('otherwise restates the request on one line', () => {
    expect(demoFileFor('Describe the  release\nprocess in docs/getting-started.md')).toEqual({
      path: 'docs/getting-started.md',
      content:
        '# Getting Started\n\nThis file was written for the request: "Describe the release process in docs/getting-started.md".\n',
    });
  });

  it('titles the fallback file Output', () => {
    expect(demoFileFor('Summarise the plan').content).toBe(
      '# Output\n\nThis file was written for the request: "Summarise the plan".\n',
    );
  });

  it('accepts a whole Keel user message and uses only the text after the last Request: marker', () => {
    const message = '## Context\nEarlier: old.md was discussed\nRequest: ignore me.txt\n\nRequest:\nWrite hello.md';
    expect(demoFileFor(message)).toEqual(demoFileFor('Write hello.md'));
    expect(demoFileFor('Request: Write a.md greeting').path).toBe('a.md');
  });
});

describe('L1', () => {
  it('answers a numbered plan naming the target and the L2 → L4 → L3 steps', () => {
    const plan = textOf(ask('L1.team_lead', user('Write hello.md that greets the reader')));
    const lines = plan.split('\n');
    expect(lines[0]).toBe('Plan for hello.md:');
    expect(lines.slice(1).map((line) => line.slice(0, 6))).toEqual(['1. L2 ', '2. L4 ', '3. L3 ']);
    expect(lines.slice(1).every((line) => line.includes('hello.md'))).toBe(true);
  });

  it('plans for the job prompt, not for files named in the context above it', () => {
    const plan = textOf(ask('L1.team_lead', user('Write a greeting', '## Notes\nold.md exists\n')));
    expect(plan).toContain('output.md');
    expect(plan).not.toContain('old.md');
  });
});

describe('L2', () => {
  it('writes one task with explicit acceptance criteria', () => {
    const task = textOf(ask('L2.architect', user('Write hello.md that greets the reader')));
    expect(task).toBe(
      'Task: Write hello.md with the write_file tool for the request: "Write hello.md that greets the reader".\n' +
        'Acceptance: hello.md is written, its first line is "# Hello", and its body greets the reader.',
    );
  });

  it('asks for a restatement when the request is not a greeting', () => {
    expect(textOf(ask('L2.manager', user('Describe docs/intro.txt')))).toMatch(
      /^Task: Write docs\/intro\.txt .*\nAcceptance: docs\/intro\.txt is written, its first line is "# Intro", and its body restates the request\.$/,
    );
  });
});

describe('L4', () => {
  const prompt = 'Write hello.md that greets the reader';

  it('calls write_file with the demo file when the tool is offered', () => {
    const reply = respond(ask('L4.executor', user(prompt), { tools: [writeFileTool] }));
    const args = JSON.stringify(demoFileFor(prompt));
    expect(reply.finish_reason).toBe('tool_calls');
    expect(reply.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: toolCallId('write_file', args), type: 'function', function: { name: 'write_file', arguments: args } },
      ],
    });
    expect(JSON.parse(args)).toEqual({ path: 'hello.md', content: '# Hello\n\nHello, reader! Welcome.\n' });
  });

  it('uses a deterministic call id derived from the arguments', () => {
    const first = respond(ask('L4.executor', user(prompt), { tools: [writeFileTool] }));
    const again = respond(ask('L4.executor', user(prompt), { tools: [writeFileTool] }));
    const other = respond(ask('L4.executor', user('Write bye.md'), { tools: [writeFileTool] }));
    const id = first.message.tool_calls?.[0]?.id;
    expect(id).toMatch(/^call_[0-9a-f]{16}$/);
    expect(again.message.tool_calls?.[0]?.id).toBe(id);
    expect(other.message.tool_calls?.[0]?.id).not.toBe(id);
  });

  it('answers Wrote <path>. once a tool result follows the request', () => {
    const call = respond(ask('L4.executor', user(prompt), { tools: [writeFileTool] })).message;
    const request: DemoRequest = {
      messages: [
        system('L4.executor'),
        user(prompt),
        { role: 'assistant', content: call.content, tool_calls: call.tool_calls ?? [] },
        { role: 'tool', tool_call_id: call.tool_calls?.[0]?.id ?? '', content: 'ok' },
      ],
      tools: [writeFileTool],
    };
    expect(textOf(request)).toBe('Wrote hello.md.');
  });

  it('ignores tool results from before the last user message', () => {
    const request: DemoRequest = {
      messages: [
        system('L4.executor'),
        user('Write old.md'),
        { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
        user(prompt),
      ],
      tools: [writeFileTool],
    };
    expect(respond(request).finish_reason).toBe('tool_calls');
  });

  it.each<[string, Partial<DemoRequest>]>([
    ['no tools', {}],
    ['only other tools', { tools: [{ type: 'function', function: { name: 'read_file' } }] }],
    ['tool_choice none', { tools: [writeFileTool], tool_choice: 'none' }],
    [
      'tool_choice forcing another function',
      { tools: [writeFileTool], tool_choice: { type: 'function', function: { name: 'read_file' } } },
    ],
  ])('answers the file content as text with %s', (_label, extra) => {
    expect(textOf(ask('L4.executor', user(prompt), extra))).toBe(demoFileFor(prompt).content);
  });

  it('calls write_file when tool_choice requires it or names it', () => {
    for (const toolChoice of ['required', 'auto', { type: 'function', function: { name: 'write_file' } }] as const) {
      const reply = respond(ask('L4.executor', user(prompt), { tools: [writeFileTool], tool_choice: toolChoice }));
      expect(reply.finish_reason).toBe('tool_calls');
    }
  });
});

describe('L4 with #look', () => {
  const prompt = 'Write hello.md that greets the reader #look';
  const readTools: FunctionTool[] = ['list_files', 'search_files', 'read_file'].map((name) => ({
    type: 'function',
    function: { name },
  }));

  it('lists, searches and reads the workspace first, then writes once those are answered', () => {
    const looked = respond(ask('L4.executor', user(prompt), { tools: [writeFileTool, ...readTools] })).message;
    expect(
      looked.tool_calls?.map((call) => [call.function.name, JSON.parse(call.function.arguments) as unknown]),
    ).toEqual([
      ['list_files', { pattern: '**' }],
      ['search_files', { query: 'hello.md' }],
      ['read_file', { path: 'hello.md' }],
    ]);
    const answered: DemoRequest = {
      messages: [
        system('L4.executor'),
        user(prompt),
        { role: 'assistant', content: null, tool_calls: looked.tool_calls ?? [] },
        ...(looked.tool_calls ?? []).map((call) => ({ role: 'tool' as const, tool_call_id: call.id, content: 'x' })),
      ],
      tools: [writeFileTool, ...readTools],
    };
    const wrote = respond(answered).message;
    expect(wrote.tool_calls?.map((call) => call.function.name)).toEqual(['write_file']);
  });

  it('writes at once when the read tools are not offered', () => {
    const reply = respond(ask('L4.executor', user(prompt), { tools: [writeFileTool] })).message;
    expect(reply.tool_calls?.map((call) => call.function.name)).toEqual(['write_file']);
  });
});

describe('L4 with edit_file', () => {
  const prompt = 'Write hello.md that greets the reader';
  const editFileTool: FunctionTool = {
    type: 'function',
    function: {
      name: 'edit_file',
      parameters: { type: 'object', properties: { path: {}, old: {}, new: {} }, required: ['path', 'old', 'new'] },
    },
  };
  const known = 'Workspace file hello.md exists\nCurrent content of hello.md:\n```\n# Hello\n\nOld body.\n```\n\n';

  it('appends the body line with one edit_file call when the file exists and its content is known', () => {
    const reply = respond(ask('L4.executor', user(prompt, known), { tools: [writeFileTool, editFileTool] }));
    const args = JSON.stringify({ path: 'hello.md', old: 'Old body.', new: 'Old body.\nHello, reader! Welcome.' });
    expect(reply.finish_reason).toBe('tool_calls');
    expect(reply.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: toolCallId('edit_file', args), type: 'function', function: { name: 'edit_file', arguments: args } },
      ],
    });
  });

  it.each<[string, string, Partial<DemoRequest>]>([
    ['the file is not known to exist', '## Notes\nNothing yet.\n\n', { tools: [writeFileTool, editFileTool] }],
    ['its content is not shown', 'Workspace file hello.md exists\n\n', { tools: [writeFileTool, editFileTool] }],
    ['edit_file is not offered', known, { tools: [writeFileTool] }],
    [
      'tool_choice names write_file',
      known,
      { tools: [writeFileTool, editFileTool], tool_choice: { type: 'function', function: { name: 'write_file' } } },
    ],
  ])('falls back to write_file when %s', (_label, context, extra) => {
    const call = respond(ask('L4.executor', user(prompt, context), extra)).message.tool_calls?.[0];
    expect(call?.function.name).toBe('write_file');
    expect(JSON.parse(call?.function.arguments ?? '{}')).toEqual(demoFileFor(prompt));
  });

  it('answers the file content as text when write_file is not offered, even with edit_file', () => {
    expect(textOf(ask('L4.executor', user(prompt, known), { tools: [editFileTool] }))).toBe(
      demoFileFor(prompt).content,
    );
  });

  it('answers Wrote <path>. once the edit has a result', () => {
    const first = ask('L4.executor', user(prompt, known), { tools: [writeFileTool, editFileTool] });
    const call = respond(first).message.tool_calls ?? [];
    const request: DemoRequest = {
      ...first,
      messages: [
        ...first.messages,
        { role: 'assistant', content: null, tool_calls: call },
        { role: 'tool', tool_call_id: call[0]?.id ?? '', content: 'edited' },
      ],
    };
    expect(textOf(request)).toBe('Wrote hello.md.');
  });
});

describe('L3', () => {
  const prompt = 'Write hello.md that greets the reader';
  const verdict = (context: string): unknown =>
    JSON.parse(textOf(ask('L3.verifier', user(prompt, context)))) as unknown;

  it('passes when the context says the target was written', () => {
    expect(textOf(ask('L3.verifier', user(prompt, '## L4 result\nWrote hello.md.\n\n')))).toBe(
      '{"verdict":"pass","deltas":[]}',
    );
    expect(verdict('## Files\nhello.md written (34 bytes)\n')).toEqual({ verdict: 'pass', deltas: [] });
  });

  it('fails with a delta when the target is not mentioned as written', () => {
    expect(textOf(ask('L3.verifier', user(prompt, '## L4 result\nNothing happened.\n')))).toBe(
      '{"verdict":"fail","deltas":["write hello.md"]}',
    );
  });

  it.each([
    ['another file was written', 'Wrote other.md.\n'],
    ['a longer path that contains the target', 'Wrote ohello.md and hello.md.bak\n'],
    ['the write failed', 'write_file failed: hello.md was not written\n'],
    ['the write was refused', "Couldn't write hello.md: it wasn't written\n"],
    ['written and the path are on different lines', 'Wrote it.\nhello.md\n'],
  ])('fails when %s', (_label, context) => {
    expect(verdict(context)).toEqual({ verdict: 'fail', deltas: ['write hello.md'] });
  });

  it('does not count the job prompt itself as evidence', () => {
    const request = ask('L3.verifier', user('Make sure hello.md is written'));
    expect(JSON.parse(textOf(request))).toEqual({ verdict: 'fail', deltas: ['write hello.md'] });
  });

  it('names the fallback target in its delta', () => {
    expect(JSON.parse(textOf(ask('L3.verifier', user('Say hi'))))).toEqual({
      verdict: 'fail',
      deltas: ['write output.md'],
    });
  });
});

describe('roles', () => {
  it('reads the role from the first system message only', () => {
    const request: DemoRequest = {
      messages: [
        { role: 'system', content: 'No level here.' },
        { role: 'system', content: 'Keel level: L1.team_lead' },
        user('Write hello.md'),
      ],
    };
    expect(textOf(request)).toContain('received: "Write hello.md"');
  });

  it('accepts a developer message, array content and a bare level', () => {
    const request: DemoRequest = {
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'Keel level: L1' }] },
        { role: 'user', content: [{ type: 'text', text: 'Request: Write hello.md' }] },
      ],
    };
    expect(textOf(request)).toMatch(/^Plan for hello\.md:/);
  });

  it.each([undefined, 'L5.intern', 'reviewer', 'L12.lead'])('echoes the request for role %s', (role) => {
    expect(textOf(ask(role, user('Tell me  a\nstory')))).toBe(
      'The offline demo model (keel-demo) received: "Tell me a story". ' +
        'It answers with fixed, deterministic text; configure an LLM provider for real answers.',
    );
  });

  it('echoes an empty request when there is no user message', () => {
    expect(textOf({ messages: [system('other')] })).toContain('received: ""');
  });
});

describe('usage', () => {
  it('estimates tokens as ceil(chars / 4)', () => {
    expect([0, 1, 4, 5, 8].map(estimateTokens)).toEqual([0, 1, 1, 2, 2]);
  });

  it('counts message text and reply text', () => {
    const request = ask(undefined, { role: 'user', content: 'hello' });
    const reply = respond(request);
    expect(reply.usage.prompt_tokens).toBe(2);
    expect(reply.usage.completion_tokens).toBe(Math.ceil((reply.message.content ?? '').length / 4));
    expect(reply.usage.total_tokens).toBe(reply.usage.prompt_tokens + reply.usage.completion_tokens);
  });

  it('counts tools in the prompt and tool call name plus arguments in the completion', () => {
    const texts = ['Keel level: L4.executor', 'Request: Write hello.md'];
    const reply = respond({
      messages: [
        { role: 'system', content: texts[0] ?? '' },
        { role: 'user', content: texts[1] ?? '' },
      ],
      tools: [writeFileTool],
    });
    const promptChars = texts.join('').length + JSON.stringify([writeFileTool]).length;
    const call = reply.message.tool_calls?.[0];
    expect(reply.usage.prompt_tokens).toBe(Math.ceil(promptChars / 4));
    expect(reply.usage.completion_tokens).toBe(
      Math.ceil(((call?.function.name.length ?? 0) + (call?.function.arguments.length ?? 0)) / 4),
    );
  });
});

describe('#cost', () => {
  it('reports the cost of every call as usage.cost, at every level', () => {
    for (const role of ['L1.team_lead', 'L2.architect', 'L3.verifier', 'L4.executor']) {
      expect(respond(ask(role, user('Write hello.md #cost=0.25'))).usage.cost).toBe(0.25);
    }
  });

  it('reports no cost without the directive', () => {
    expect(respond(ask('L1.team_lead', user('Write hello.md'))).usage).not.toHaveProperty('cost');
  });
});

describe('determinism', () => {
  it('gives equal replies to equal requests', () => {
    const request = ask('L4.executor', user('Write hello.md'), { tools: [writeFileTool] });
    expect(respond(request)).toEqual(respond(structuredClone(request)));
  });
});

describe('L4 offered run_command', () => {
  const prompt = 'Write hello.md that greets the reader';
  const runCommandTool: FunctionTool = { type: 'function', function: { name: 'run_command' } };
  const request = (...turn: ChatMessage[]): DemoRequest => ({
    messages: [system('L4.executor'), user(prompt), ...turn],
    tools: [writeFileTool, runCommandTool],
  });
  const answered = (reply: ReturnType<typeof respond>, content: string): ChatMessage[] => [
    { role: 'assistant', content: null, tool_calls: reply.message.tool_calls ?? [] },
    { role: 'tool', tool_call_id: reply.message.tool_calls![0]!.id, content },
  ];

  it('runs the tests, writes the file, runs the tests again, then says how the last run ended', () => {
    const before = respond(request());
    expect(before.message.tool_calls?.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ['run_command', '{"command":"node --test"}'],
    ]);
    const ran = answered(before, '$ node --test\nexit code 0 (0.2 s, no network)\nTAP version 13');
    const write = respond(request(...ran));
    expect(write.message.tool_calls?.[0]?.function.name).toBe('write_file');
    const wrote = answered(write, 'Created hello.md');
    const after = respond(request(...ran, ...wrote));
    expect(after.message.tool_calls?.[0]?.function.name).toBe('run_command');
    const ranAgain = answered(after, '$ node --test\nexit code 1 (0.3 s, no network)\nnot ok 1');
    expect(respond(request(...ran, ...wrote, ...ranAgain)).message.content).toBe(
      'Wrote hello.md. node --test: exit code 1 (0.3 s, no network)',
    );
  });

  it('#unlisted-command: the first call runs node --version, then writes and runs the tests as usual', () => {
    const unlisted = (...turn: ChatMessage[]): DemoRequest => ({
      messages: [system('L4.executor'), user(`${prompt} #unlisted-command`), ...turn],
      tools: [writeFileTool, runCommandTool],
    });
    const first = respond(unlisted());
    expect(first.message.tool_calls?.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ['run_command', '{"command":"node --version"}'],
    ]);
    const declined = answered(first, "run_command declined: node --version is outside this level's allowlist");
    expect(respond(unlisted(...declined)).message.tool_calls?.[0]?.function.name).toBe('write_file');
  });
});
