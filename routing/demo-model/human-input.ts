import type { DemoRequest, ToolCall } from './chat-wire';
import type { Directives } from './directives';
import { oneLine } from './demo-file';
import { offersTool, toolAnswer, toolCall } from './tool-use';

/**
 * The L2 level's human-input steps under `#ask` and `#approve`: which question or approval request comes next,
 * and what the human's answers mean. The rule itself is documented at the top of `respond.ts`.
 */

export const ASK_USER_TOOL = 'ask_user';
export const REQUEST_APPROVAL_TOOL = 'request_approval';

export type HumanInputStep =
  /** Call a human-input tool and wait for its result. */
  | { kind: 'call'; call: ToolCall }
  /** The approval was not granted: withdraw the task, for `reason`. */
  | { kind: 'withdrawn'; reason: string }
  /** Answer as usual; `answer` is the human's answer to `ask_user`, when there is one. */
  | { kind: 'proceed'; answer: string | undefined };

const APPROVED = /^\s*approved/i;
const REJECTED = /^\s*rejected/i;
// Keel's runtime may write `rejected: <comment>`; the separator is not part of the reason.
const LEADING_SEPARATOR = /^[:;,.\-–—]\s*/;

/**
 * The next step for an L2 request targeting `path`. The question comes before the approval, so the approver
 * sees the whole exchange. Answers count whether or not a directive or tool is still present: a human who
 * rejected has rejected.
 */
export function humanInputStep(request: DemoRequest, directives: Directives, path: string): HumanInputStep {
  const answer = toolAnswer(request.messages, ASK_USER_TOOL);
  if (directives.ask && answer === undefined && offersTool(request, ASK_USER_TOOL)) {
    return callOf(ASK_USER_TOOL, { question: `Which tone should ${path} use: formal or friendly?` });
  }
  const decision = toolAnswer(request.messages, REQUEST_APPROVAL_TOOL);
  if (directives.approve && decision === undefined && offersTool(request, REQUEST_APPROVAL_TOOL)) {
    return callOf(REQUEST_APPROVAL_TOOL, {
      action: `write ${path}`,
      reason: `The request asks for a human approval (#approve) before ${path} is written.`,
    });
  }
  // An approval gate stays closed unless the answer says `approved`: anything else withdraws the task.
  if (decision !== undefined && !APPROVED.test(decision)) return { kind: 'withdrawn', reason: reasonOf(decision) };
  return { kind: 'proceed', answer: answer === undefined ? undefined : oneLine(answer) };
}

function callOf(name: string, args: Record<string, string>): HumanInputStep {
  return { kind: 'call', call: toolCall(name, args) };
}

/** The rejection's reason: what follows `rejected`, on one line, without a leading separator. */
function reasonOf(decision: string): string {
  const rest = REJECTED.test(decision) ? decision.replace(REJECTED, '') : decision;
  const reason = oneLine(rest).replace(LEADING_SEPARATOR, '');
  return reason.length > 0 ? reason : 'no reason given';
}
