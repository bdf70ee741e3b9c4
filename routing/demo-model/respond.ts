/**
 * The offline demo model (`keel-demo`, shown as "offline demo model"): what Keel serves on the chat_compat wire
 * when no LLM provider is configured, so a job runs end to end without keys. Its replies are a pure,
 * deterministic function of the request.
 *
 * Contract with Keel's level prompts:
 * - Role line: the first `system` (or `developer`) message contains a line `Keel level: <role>`; the role is the
 *   first whitespace-free word after the colon, e.g. `L1.team_lead`, `L2.architect`, `L3.verifier`,
 *   `L4.executor`. Its level is the `L1`–`L4` prefix (case-insensitive, followed by `.` or nothing).
 * - Request: the last `user` message carries the request. Keel may put context above it under headings; the
 *   user's job prompt is everything after the last line that starts with `Request:` (text on the marker line
 *   itself included), trimmed. Without a marker the whole message is the job prompt.
 * - Target file and its content: see `demoFileFor` (demo-file.ts), the single home of that rule.
 * - Offered tool: `tools` has a function of that name and `tool_choice` allows it (not `none`, not another
 *   function). Tool calls get the id `call_` + the first 16 hex digits of the SHA-256 of `<name>:<arguments>`,
 *   and a reply that calls a tool has content null and finish `tool_calls`.
 * - Answered call: a `tool` message after the last user message answers an assistant call of the same id
 *   after it; the last answer to calls of a name counts. Earlier tool traffic belongs to another request.
 *
 * Replies, by level:
 * - L1: a numbered plan naming the target file and the L2 → L4 → L3 steps.
 * - L2: `Task: ...` and `Acceptance: ...` lines, one task for L4 (see `#ask` and `#approve` below).
 * - L4: if a `write_file` or `edit_file` call is answered, the text `Wrote <path>.` (finish `stop`). Otherwise,
 *   if `edit_file` and `write_file` are both offered and the context (as for L3) has a line
 *   `Workspace file <path> exists` and the file's content as a fenced block under a line
 *   `Current content of <path>:` (workspace-context.ts), whose last non-blank line occurs once in it: one
 *   `edit_file` call `{"path":...,"old":<that line>,"new":<that line>\n<body>}` appending the demo file's body
 *   line. Otherwise, if `write_file` is offered, one `write_file` call `{"path":...,"content":...}` from
 *   `demoFileFor`. Otherwise, the file content as text.
 * - L3: `{"verdict":"pass","deltas":[]}` when a line of the context (the last user message above its `Request:`
 *   marker, or all of it without one) contains the target path as a path token and the word `wrote` or
 *   `written`, and none of `not`, `n't`, `never`, `fail(ed)`, `error`, `unable`, `cannot`; else
 *   `{"verdict":"fail","deltas":["write <path>"]}` (see `#verify-fail` below).
 * - Any other role, or no role line: a one-paragraph echo of the job prompt.
 *
 * Directives, so anyone can walk each path of the hierarchy without an LLM: tokens anywhere in the job prompt,
 * matched case-insensitively as whole tokens (`#ask` counts in `(#ask),` but not in `#asked`, `#ask-me`, `x#ask`
 * or `#ask.md`); directives.ts finds them. They stay part of the job prompt, so the demo file restates them.
 * - `#ask` (L2): while `ask_user` is offered and no `ask_user` call is answered, one `ask_user` call
 *   `{"question":"Which tone should <path> use: formal or friendly?"}`. Without the tool offered, the directive is
 *   ignored. Once answered, the usual L2 reply plus a last line `Tone: <answer on one line>.` (`no answer given`
 *   when the answer is blank); this holds for any answered `ask_user` call.
 * - `#approve` (L2): while `request_approval` is offered and no `request_approval` call is answered, one call
 *   `{"action":"write <path>","reason":...}`, after `#ask`'s question is answered when both are given. Once
 *   answered: an answer starting with `approved` (any case, leading whitespace ignored) gives the usual reply;
 *   any other answer, `rejected ...` or not, leaves the gate closed and gives only the line
 *   `Task withdrawn: the approval was rejected (<reason>).`, where reason is the answer after a leading
 *   `rejected`, on one line, without a leading separator such as `:`, or `no reason given` when that is empty.
 * - `#verify-fail=N` (L3; N a non-negative integer, the first one wins): while the attempt number is ≤ N,
 *   `{"verdict":"fail","deltas":["add a closing line to <path>"]}`; afterwards the usual L3 rule. The attempt
 *   number is read from the last line `Attempt: <k>` of the context, which Keel's runtime writes for each
 *   verifier attempt (counting from 1); without such a line it is 1.
 * - `#look` (L4): while `read_file`, `list_files` and `search_files` are offered and no `read_file` call is
 *   answered, one reply of three calls: `list_files {"pattern":"**"}`, `search_files {"query":<path>}` and
 *   `read_file {"path":<path>}`, as a careful executor looks before it writes; then the usual L4 reply.
 * - `run_command` (L4, no directive): while the tool is offered (the `build-and-test` scenario), the executor runs
 *   `node --test` before it writes and again after, each as one call, and its last line names how the last run
 *   ended: `Wrote <path>. node --test: <the result's second line>` (e.g. `exit code 0 (0.2 s, no network)`).
 * - `#unlisted-command` (L4): with `run_command` offered, the executor's first call runs `node --version` (outside
 *   `build-and-test`'s allowlist) instead of `node --test`; then as above. A project whose approval policy sends
 *   unlisted commands to an approval (docs/toolbelt.md) is asked about it.
 * - `#build-fail=N` (L4; N a non-negative integer): while the context's last `Failed builds: <k>` line (0 without
 *   one) has k < N, the executor breaks the build of the template named by the context's `Template: <id> (` line
 *   (build-break.ts): for `ts-library` and `node-service` a second `write_file` call in the same reply writes a
 *   source file the template's build command refuses (a type error for tsc, a syntax error for `node --check`);
 *   otherwise (`static-page`, or no template) the written file gets a last line linking to `missing-page.html`,
 *   which a static page's build refuses. Once k ≥ N > 0 the usual file, plus the template's break file rewritten
 *   valid, since the workspace still holds the broken one. Only `write_file` calls are affected.
 * - Reviews: a request whose system message also has a line `Keel review: ...` (a review lead reviewing a result,
 *   pure/review-leads.ts) gets `{"verdict":"pass","findings":[]}`, except while `#security-block=N` (role
 *   `L2.security_lead`) or `#adversarial-block=N` (role `L2.adversarial_lead`) has the context's attempt (as for L3)
 *   ≤ N: then `{"verdict":"fail","findings":[{"severity":"blocking","finding":...,"fix":...}]}`.
 * - `#slow` (any level): the server delays the reply, streamed or not, by its `slowMs` option (3 s by default) so a
 *   person can try cancelling; the delay ends early, without a reply, when the client disconnects, and with a 503
 *   when the server closes. `respond` ignores it and stays pure; the server asks `isSlow` (directives.ts).
 *
 * - `#mcp=<server>/<tool>[?<name>=<value>&…]` (L4): while the level is offered any tool and no call to
 *   `mcp__<server>__<tool>` is answered, one call to it with the query's names and values (strings, URL-encoded) as
 *   its arguments, before anything else; it is called even when not offered (a server that is down offers none), so
 *   the level's answer for an unavailable tool can be seen. Once answered, the usual L4 reply plus a last line
 *   `MCP <tool name>: <the answer's first line>`.
 *
 * - `#cost=<usd>` (any level; a non-negative decimal such as `0.25`): every reply's usage reports `cost: <usd>`, the
 *   field OpenRouter reports a call's price in, so each call of the job costs that much (routing/dispatch.ts charges a
 *   reported cost for a model the catalog prices at nothing) and budgets can be exercised without a key.
 *
 * Usage is estimated at ceil(chars / 4) tokens. Prompt chars: the text of every message, the name and arguments
 * of every tool call in them, and the JSON of `tools`. Completion chars: the reply text plus each tool call's
 * name and arguments.
 */
import type { AssistantMessage, DemoReply, DemoRequest, FinishReason, ToolCall } from './chat-wire';
import { bodyFor, demoFileFor, isGreeting, oneLine, pathTokensIn, targetPathFor, titleFor } from './demo-file';
import { directivesOf, requestDirectives } from './directives';
import type { Directives } from './directives';
import { humanInputStep } from './human-input';
import {
  attemptOf,
  failedBuildsOf,
  isReviewRequest,
  keelRoleOf,
  lastUserText,
  levelOf,
  splitRequest,
  textOf,
} from './prompt-contract';
import { callReply, callsReply, offersTool, toolAnswer, toolAnswers, toolCall } from './tool-use';
import { buildBreakFileFor, templateOf } from './build-break';
import { appendAnchorOf } from './workspace-context';

export { demoFileFor } from './demo-file';
export { isSlow } from './directives';
export { toolCallId } from './tool-use';

export const DEMO_MODEL_ID = 'keel-demo';
export const DEMO_MODEL_DISPLAY_NAME = 'offline demo model';
export const WRITE_FILE_TOOL = 'write_file';
export const EDIT_FILE_TOOL = 'edit_file';
/** The command the demo executor runs with `run_command` before and after it writes. */
export const DEMO_TEST_COMMAND = 'node --test';
/** The command `#unlisted-command` runs first: no shipped scenario's allowlist names it. */
export const DEMO_UNLISTED_COMMAND = 'node --version';
/** The read-only workspace tools `#look` calls (activities/workspace-read.ts). */
const READ_TOOLS = ['list_files', 'search_files', 'read_file'];
/** The page `#build-fail=N` links to; no template has it, so a static page's build fails on it. */
export const BROKEN_LINK_TARGET = 'missing-page.html';

const WROTE = /\b(?:wrote|written)\b/i;
const NEGATION = /\b(?:not|never|fail|failed|error|unable|cannot)\b|n't\b/i;

/**
 * The demo model's reply to a chat-completions request. Pure and deterministic: equal requests give equal
 * replies, including tool call ids. Never throws for a request that passed `chatCompletionRequestSchema`.
 */
export function respond(request: DemoRequest): DemoReply {
  const { message, finish_reason } = replyFor(request);
  const promptTokens = estimateTokens(promptChars(request));
  const completionTokens = estimateTokens((message.content ?? '').length + toolCallChars(message.tool_calls ?? []));
  const cost = requestDirectives(request).cost;
  return {
    message,
    finish_reason,
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      ...(cost === undefined ? {} : { cost }),
    },
  };
}

/** Token estimate used for usage: a quarter of the characters, rounded up. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

function replyFor(request: DemoRequest): { message: AssistantMessage; finish_reason: FinishReason } {
  const userText = lastUserText(request.messages);
  const { context, jobPrompt } = splitRequest(userText);
  const path = targetPathFor(jobPrompt);
  const directives = directivesOf(jobPrompt);
  const role = keelRoleOf(request.messages);
  if (isReviewRequest(request.messages)) return text(reviewFor(role, path, context, directives));
  switch (levelOf(role)) {
    case 1:
      return text(planFor(path));
    case 2:
      return architectReply(request, directives, path, jobPrompt);
    case 3:
      return text(verdictFor(path, context, directives));
    case 4:
      return executorReply(request, userText);
    default:
      return text(echoFor(jobPrompt));
  }
}

function text(content: string): { message: AssistantMessage; finish_reason: FinishReason } {
  return { message: { role: 'assistant', content }, finish_reason: 'stop' };
}

function planFor(path: string): string {
  return [
    `Plan for ${path}:`,
    `1. L2 writes one task for L4 to create ${path}, with acceptance criteria.`,
    `2. L4 writes ${path} with the ${WRITE_FILE_TOOL} tool.`,
    `3. L3 verifies that ${path} was written and meets the acceptance criteria.`,
  ].join('\n');
}

function architectReply(
  request: DemoRequest,
  directives: Directives,
  path: string,
  jobPrompt: string,
): { message: AssistantMessage; finish_reason: FinishReason } {
  const step = humanInputStep(request, directives, path);
  switch (step.kind) {
    case 'call':
      return callReply(step.call);
    case 'withdrawn':
      return text(`Task withdrawn: the approval was rejected (${step.reason}).`);
    case 'proceed': {
      const task = taskFor(path, jobPrompt);
      if (step.answer === undefined) return text(task);
      return text(`${task}\nTone: ${step.answer.length > 0 ? step.answer : 'no answer given'}.`);
    }
  }
}

function taskFor(path: string, jobPrompt: string): string {
  const body = isGreeting(jobPrompt) ? 'greets the reader' : 'restates the request';
  return [
    `Task: Write ${path} with the ${WRITE_FILE_TOOL} tool for the request: "${oneLine(jobPrompt)}".`,
    `Acceptance: ${path} is written, its first line is "# ${titleFor(path)}", and its body ${body}.`,
  ].join('\n');
}

function verdictFor(path: string, context: string, directives: Directives): string {
  if (directives.verifyFail !== undefined && attemptOf(context) <= directives.verifyFail) {
    return JSON.stringify({ verdict: 'fail', deltas: [`add a closing line to ${path}`] });
  }
  const written = context
    .split('\n')
    .some((line) => WROTE.test(line) && !NEGATION.test(line) && pathTokensIn(line).includes(path));
  return JSON.stringify(written ? { verdict: 'pass', deltas: [] } : { verdict: 'fail', deltas: [`write ${path}`] });
}

/**
 * A review lead's review (`Keel review:`): a blocking finding while `#security-block=N` (security lead) or
 * `#adversarial-block=N` (adversarial lead) is at least the review's attempt, else a pass with no findings.
 */
function reviewFor(role: string | undefined, path: string, context: string, directives: Directives): string {
  const blockUntil =
    role === 'L2.security_lead'
      ? directives.securityBlock
      : role === 'L2.adversarial_lead'
        ? directives.adversarialBlock
        : undefined;
  if (blockUntil !== undefined && attemptOf(context) <= blockUntil) {
    const finding =
      role === 'L2.security_lead'
        ? { finding: `${path} may carry a secret`, fix: `${path}: state that it holds no secrets` }
        : { finding: `${path} has no answer for an empty request`, fix: `${path}: say what happens with no input` };
    return JSON.stringify({ verdict: 'fail', findings: [{ severity: 'blocking', ...finding }] });
  }
  return JSON.stringify({ verdict: 'pass', findings: [] });
}

function echoFor(jobPrompt: string): string {
  return (
    `The ${DEMO_MODEL_DISPLAY_NAME} (${DEMO_MODEL_ID}) received: "${oneLine(jobPrompt)}". ` +
    'It answers with fixed, deterministic text; configure an LLM provider for real answers.'
  );
}

function executorReply(
  request: DemoRequest,
  userText: string,
): { message: AssistantMessage; finish_reason: FinishReason } {
  const { mcp } = directivesOf(splitRequest(userText).jobPrompt);
  if (mcp && (request.tools ?? []).length > 0) {
    const answered = toolAnswer(request.messages, mcp.name);
    if (answered === undefined) return callReply(toolCall(mcp.name, mcp.args));
    const reply = executorSteps(request, userText);
    if (reply.finish_reason !== 'stop' || reply.message.content === null) return reply;
    return text(`${textOf(reply.message.content)}\nMCP ${mcp.name}: ${oneLine(answered.split('\n')[0] ?? '')}`);
  }
  return executorSteps(request, userText);
}

function executorSteps(
  request: DemoRequest,
  userText: string,
): { message: AssistantMessage; finish_reason: FinishReason } {
  const file = demoFileFor(userText);
  const wrote = [WRITE_FILE_TOOL, EDIT_FILE_TOOL].some((name) => toolAnswer(request.messages, name) !== undefined);
  // Tests before the change and after it, when the level may run commands.
  const testRuns = offersTool(request, 'run_command') ? toolAnswers(request.messages, 'run_command') : undefined;
  const runTests = () => callReply(toolCall('run_command', { command: DEMO_TEST_COMMAND }));
  if (testRuns && testRuns.length === 0) {
    const { jobPrompt } = splitRequest(userText);
    if (!directivesOf(jobPrompt).unlistedCommand) return runTests();
    return callReply(toolCall('run_command', { command: DEMO_UNLISTED_COMMAND }));
  }
  if (wrote && testRuns && testRuns.length < 2) return runTests();
  if (wrote && testRuns) {
    const ended = testRuns.at(-1)!.split('\n')[1] ?? 'no result';
    return text(`Wrote ${file.path}. ${DEMO_TEST_COMMAND}: ${ended}`);
  }
  if (wrote) return text(`Wrote ${file.path}.`);
  const { context, jobPrompt } = splitRequest(userText);
  const reads = READ_TOOLS.every((name) => offersTool(request, name));
  if (directivesOf(jobPrompt).look && reads && toolAnswer(request.messages, 'read_file') === undefined) {
    return callsReply([
      toolCall('list_files', { pattern: '**' }),
      toolCall('search_files', { query: file.path }),
      toolCall('read_file', { path: file.path }),
    ]);
  }
  if (!offersTool(request, WRITE_FILE_TOOL)) return text(file.content);
  // Appending to a file the workspace already has keeps what is there, as a careful executor would.
  const anchor = offersTool(request, EDIT_FILE_TOOL) ? appendAnchorOf(context, file.path) : undefined;
  if (anchor !== undefined) {
    return callReply(
      toolCall(EDIT_FILE_TOOL, { path: file.path, old: anchor, new: `${anchor}\n${bodyFor(jobPrompt)}` }),
    );
  }
  return callsReply(buildBreakCalls(file, context, jobPrompt));
}

/**
 * The executor's write_file calls under `#build-fail=N`: until N builds of the job failed, a real failure of the
 * template's real build command (not a pretend one); afterwards the clean file, and the template's break file
 * repaired. Without the directive, the one clean write.
 */
function buildBreakCalls(file: { path: string; content: string }, context: string, jobPrompt: string): ToolCall[] {
  const clean = toolCall(WRITE_FILE_TOOL, { path: file.path, content: file.content });
  const { buildFail } = directivesOf(jobPrompt);
  if (buildFail === undefined || buildFail === 0) return [clean];
  const breaking = failedBuildsOf(context) < buildFail;
  const own = buildBreakFileFor(templateOf(context));
  if (!own) {
    if (!breaking) return [clean];
    const linked = `${file.content}\nSee [the details](${BROKEN_LINK_TARGET}).\n`;
    return [toolCall(WRITE_FILE_TOOL, { path: file.path, content: linked })];
  }
  return [clean, toolCall(WRITE_FILE_TOOL, { path: own.path, content: breaking ? own.broken : own.repaired })];
}

function promptChars(request: DemoRequest): number {
  let chars = request.tools ? JSON.stringify(request.tools).length : 0;
  for (const message of request.messages) {
    chars += textOf(message.content).length;
    if (message.role === 'assistant') chars += toolCallChars(message.tool_calls ?? []);
  }
  return chars;
}

function toolCallChars(calls: readonly ToolCall[]): number {
  return calls.reduce((sum, call) => sum + call.function.name.length + call.function.arguments.length, 0);
}
