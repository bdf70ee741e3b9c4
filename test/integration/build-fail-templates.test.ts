/**
 * `#build-fail` breaks the real build of every shipped template, and the repaired write makes it pass: the demo
 * executor's own write_file calls are applied to a freshly scaffolded template, and the template's build and test
 * commands run in the build sandbox, as a product job runs them.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_BUILD_LIMITS, verifyBuild } from '../../products/build-runner';
import { loadTemplates, scaffoldFiles, type Template } from '../../products/template-catalog';
import { writeFiles } from '../../products/workspace-files';
import type { DemoRequest } from '../../routing/demo-model/chat-wire';
import { respond } from '../../routing/demo-model/respond';

let templates: Template[];
let dir: string;

beforeAll(async () => {
  templates = await loadTemplates();
});

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-build-fail-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const writeFile = {
  type: 'function' as const,
  function: { name: 'write_file', parameters: { type: 'object', properties: {} } },
};

/** The executor's request as a product job words it: the prelude's template line, then any build history. */
function executorRequest(template: Template, history: string, jobPrompt: string): DemoRequest {
  const prelude = `## Output of L1.team_lead (template and design)\nTemplate: ${template.id} (${template.name}), already scaffolded in the workspace.\n\n`;
  return {
    messages: [
      { role: 'system', content: 'Keel level: L4.executor' },
      { role: 'user', content: `${prelude}${history}Request:\n${jobPrompt}` },
    ],
    tools: [writeFile],
  };
}

/** Applies the demo executor's write_file calls to the workspace, as the level's tool loop does. */
async function applyExecutor(request: DemoRequest): Promise<string[]> {
  const calls = respond(request).message.tool_calls ?? [];
  expect(calls.length).toBeGreaterThan(0);
  const files = calls.map((call) => {
    expect(call.function.name).toBe('write_file');
    return JSON.parse(call.function.arguments) as { path: string; content: string };
  });
  await writeFiles(dir, files);
  return files.map((f) => f.path);
}

test.each(['static-page', 'ts-library', 'node-service'])(
  '#build-fail=1 fails the %s build command for real, and the next attempt builds and tests clean',
  async (id) => {
    const template = templates.find((t) => t.id === id)!;
    await writeFiles(dir, scaffoldFiles(template, 'Bakery'));
    const prompt = 'Build it for a bakery #build #build-fail=1';

    await applyExecutor(executorRequest(template, '', prompt));
    const broken = await verifyBuild(dir, template, DEFAULT_BUILD_LIMITS);
    expect(broken).toMatchObject({ ok: false, step: 'build', command: template.build });
    expect(broken.exitCode).not.toBe(0);

    await applyExecutor(
      executorRequest(template, '## Output of L3.build_verifier (history)\nFailed builds: 1\n\n', prompt),
    );
    const fixed = await verifyBuild(dir, template, DEFAULT_BUILD_LIMITS);
    expect(fixed).toMatchObject({ ok: true, step: 'test', exitCode: 0 });
  },
);

test('without the directive the demo executor keeps every template building', async () => {
  for (const template of templates) {
    await fs.rm(dir, { recursive: true, force: true });
    await fs.mkdir(dir);
    await writeFiles(dir, scaffoldFiles(template, 'Bakery'));
    expect(await applyExecutor(executorRequest(template, '', 'Build it for a bakery #build'))).toEqual(['output.md']);
    expect(await verifyBuild(dir, template, DEFAULT_BUILD_LIMITS)).toMatchObject({ ok: true });
  }
});
