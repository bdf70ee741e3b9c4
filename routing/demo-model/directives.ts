import type { DemoRequest } from './chat-wire';
import { lastUserText, splitRequest } from './prompt-contract';

/**
 * Demo directives: tokens a person puts in the job prompt to walk the demo model down a path of the hierarchy
 * (a human question, an approval, verifier retries, a slow reply to cancel) without an LLM. What each directive
 * does is documented at the top of `respond.ts`; this module only finds them.
 */

export interface Directives {
  /** `#ask`: the L2 level asks the human a question with `ask_user` before answering. */
  ask: boolean;
  /** `#approve`: the L2 level asks for approval with `request_approval` before answering. */
  approve: boolean;
  /** `#slow`: the server delays every reply so a person has time to cancel. */
  slow: boolean;
  /** `#verify-fail=N`: the L3 level fails its attempts 1..N; undefined without the directive. */
  verifyFail: number | undefined;
  /** `#build-fail=N`: the L4 level breaks the template's build until N builds failed. */
  buildFail: number | undefined;
  /** `#security-block=N`: the security lead's review has a blocking finding on review attempts 1..N. */
  securityBlock: number | undefined;
  /** `#adversarial-block=N`: the adversarial lead's review has a blocking finding on review attempts 1..N. */
  adversarialBlock: number | undefined;
  /** `#cost=<usd>`: every call reports this cost in USD (`usage.cost`), so budgets can be exercised without a key. */
  cost: number | undefined;
  /** `#look`: the L4 level lists, searches and reads the workspace with the read tools before it writes. */
  look: boolean;
  /** `#unlisted-command`: the L4 level's first `run_command` is one no shipped allowlist names (`node --version`). */
  unlistedCommand: boolean;
  /**
   * `#mcp=<server>/<tool>[?<name>=<value>&…]`: the L4 level calls the MCP tool `mcp__<server>__<tool>` with those
   * arguments (strings, URL-encoded) before anything else.
   */
  mcp: { name: string; args: Record<string, string> } | undefined;
}

// A directive is a whole token: `#ask` counts in `#ask,` or `(#ask)` but not in `#asked`, `x#ask`, `#ask-me`,
// `#ask=1` or `#ask.md`. Sentence punctuation right after it is fine.
const BEFORE = String.raw`(?<![\w#-])`;
const AFTER = String.raw`(?![\w#=-]|\.\w)`;
const ASK = new RegExp(`${BEFORE}#ask${AFTER}`, 'i');
const APPROVE = new RegExp(`${BEFORE}#approve${AFTER}`, 'i');
const SLOW = new RegExp(`${BEFORE}#slow${AFTER}`, 'i');
const VERIFY_FAIL = new RegExp(String.raw`${BEFORE}#verify-fail=(\d+)${AFTER}`, 'i');
const BUILD_FAIL = new RegExp(String.raw`${BEFORE}#build-fail=(\d+)${AFTER}`, 'i');
const SECURITY_BLOCK = new RegExp(String.raw`${BEFORE}#security-block=(\d+)${AFTER}`, 'i');
const ADVERSARIAL_BLOCK = new RegExp(String.raw`${BEFORE}#adversarial-block=(\d+)${AFTER}`, 'i');
const LOOK = new RegExp(`${BEFORE}#look${AFTER}`, 'i');
const UNLISTED_COMMAND = new RegExp(`${BEFORE}#unlisted-command${AFTER}`, 'i');
const MCP = new RegExp(String.raw`${BEFORE}#mcp=([a-z0-9]+(?:-[a-z0-9]+)*)/([A-Za-z0-9_.-]+)(?:\?(\S*))?`, 'i');
const COST = new RegExp(String.raw`${BEFORE}#cost=(\d+(?:\.\d+)?)${AFTER}`, 'i');

/** The directives in a job prompt (the text after the last `Request:` marker). The first `#verify-fail=N` wins. */
export function directivesOf(jobPrompt: string): Directives {
  const verifyFail = VERIFY_FAIL.exec(jobPrompt)?.[1];
  const buildFail = BUILD_FAIL.exec(jobPrompt)?.[1];
  return {
    ask: ASK.test(jobPrompt),
    approve: APPROVE.test(jobPrompt),
    slow: SLOW.test(jobPrompt),
    verifyFail: verifyFail === undefined ? undefined : Number(verifyFail),
    buildFail: buildFail === undefined ? undefined : Number(buildFail),
    securityBlock: numberOf(SECURITY_BLOCK, jobPrompt),
    adversarialBlock: numberOf(ADVERSARIAL_BLOCK, jobPrompt),
    cost: numberOf(COST, jobPrompt),
    look: LOOK.test(jobPrompt),
    unlistedCommand: UNLISTED_COMMAND.test(jobPrompt),
    mcp: mcpOf(jobPrompt),
  };
}

function mcpOf(jobPrompt: string): Directives['mcp'] {
  const found = MCP.exec(jobPrompt);
  if (!found) return undefined;
  // Sentence punctuation after the directive is not part of its last value.
  const query = (found[3] ?? '').replace(/[.,;:!)]+$/, '');
  const args: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) args[key] = value;
  return { name: `mcp__${found[1]!.toLowerCase()}__${found[2]!.replace(/[.]+$/, '')}`, args };
}

function numberOf(directive: RegExp, jobPrompt: string): number | undefined {
  const found = directive.exec(jobPrompt)?.[1];
  return found === undefined ? undefined : Number(found);
}

/** The directives of a request's job prompt, read from its last user message. */
export function requestDirectives(request: DemoRequest): Directives {
  return directivesOf(splitRequest(lastUserText(request.messages)).jobPrompt);
}

/**
 * True when the request's job prompt carries `#slow`. The server, not `respond`, applies the delay, so that
 * `respond` stays a pure function of the request.
 */
export function isSlow(request: DemoRequest): boolean {
  return requestDirectives(request).slow;
}
