import { stripVTControlCharacters } from 'node:util';
import type { EventEnvelope } from '../events/envelope';
import { renderProductEvent } from './render-product';

export interface RenderStyle {
  color: boolean;
  /** The terminal's columns: a level's output preview is cut to fit, so rows stay one line each and aligned. */
  width?: number;
}

/** The role column: wide enough for the shipped roles (`L2.release_manager`); a longer one is cut. */
const ROLE_WIDTH = 18;

const CODES = {
  dim: [2, 22],
  bold: [1, 22],
  green: [32, 39],
  red: [31, 39],
  cyan: [36, 39],
  yellow: [33, 39],
} as const;
type Tone = keyof typeof CODES;

function paint(style: RenderStyle, tone: Tone, text: string): string {
  if (!style.color) return text;
  const [open, close] = CODES[tone];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

/** `text` cut to `max` characters, ending in … when cut. */
export function fit(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return max <= 1 ? '…'.slice(0, max) : `${chars.slice(0, max - 1).join('')}…`;
}

/** `head` then the preview on one line, the preview cut to what is left of the terminal's width. */
function withPreview(head: string, preview: string, style: RenderStyle): string {
  const flat = preview.replace(/\s+/g, ' ').trim();
  if (!flat) return head;
  const room = style.width ? style.width - [...stripVTControlCharacters(head)].length - 2 : Infinity;
  if (room < 8) return head;
  return `${head}  ${paint(style, 'dim', fit(flat, room))}`;
}

/** The question or approval a wait's step is about. */
const waitOf = (p: Record<string, unknown>) =>
  `${p.waiting_for === 'approval' ? 'approval' : 'question'} "${str(p.text)}"${p.approval_id ? ` (${str(p.approval_id)})` : ''}`;

/**
 * One terminal line per event worth showing, or undefined for events too fine-grained for a person
 * (node bookkeeping, tool results). Unknown kinds get a generic row: the catalog grows.
 */
export function renderEvent(event: EventEnvelope, style: RenderStyle): string | undefined {
  const p = event.payload;
  const role = paint(style, 'cyan', fit(event.agent_role, ROLE_WIDTH).padEnd(ROLE_WIDTH));
  switch (event.kind) {
    case 'node_started':
    case 'node_finished':
    case 'tool_result':
    case 'level_started':
      return undefined;
    case 'routing_decision': {
      const name = p.model_display_name ? ` (${str(p.model_display_name)})` : '';
      return `${role} ${paint(style, 'dim', `→ ${str(p.provider)}/${str(p.model) || '(any)'}${name} [${str(p.tier)}]`)}`;
    }
    case 'level_finished': {
      const mark = p.ok ? paint(style, 'green', '✓') : paint(style, 'red', '✗');
      const attempt = typeof p.attempt === 'number' && p.attempt > 1 ? ` (attempt ${p.attempt})` : '';
      const head = `${role} ${mark} ${str(p.duration_ms)} ms${attempt}`;
      // A verifier's output is its verdict as JSON: the verdict says it (the gate's row lists what to change).
      if (p.verdict) return `${head}  verdict: ${paint(style, p.verdict === 'pass' ? 'green' : 'red', str(p.verdict))}`;
      return withPreview(head, str(p.output_preview), style);
    }
    case 'tool_call':
      return `${role} ${paint(style, 'dim', `calls ${str(p.name)}`)}`;
    case 'file_created':
      return `${role} ${paint(style, 'yellow', '+')} ${str(p.path)} (${str(p.size_bytes)} bytes)`;
    case 'final': {
      const files =
        Array.isArray(p.created_files) && p.created_files.length > 0 ? `\n  files: ${p.created_files.join(', ')}` : '';
      return `${paint(style, 'bold', paint(style, 'green', '✔ final'))}  ${str(p.summary)}${files}\n  ${str(p.agent_message)}`;
    }
    case 'ask_user':
      return `${role} ${paint(style, 'yellow', '?')} ${str(p.question)}`;
    case 'approval_requested':
      return `${role} ${paint(style, 'yellow', '!')} approval needed: ${str(p.action)} — ${str(p.reason)} (${str(p.approval_id)})`;
    // How an approval ended, and the steps of a wait for a person (docs/approval-policies.md, docs/reminders.md).
    case 'approval_decided': {
      const by = p.rule_id ? `policy rule ${str(p.rule_id)}` : str(p.decided_by);
      const verdict = p.decision === 'approve' ? paint(style, 'green', 'approved') : paint(style, 'red', 'rejected');
      return `${role} ${verdict} by ${by}${p.action ? `: ${str(p.action)}` : ''} (${str(p.approval_id)})`;
    }
    case 'reminder_sent':
      return `${role} ${paint(style, 'yellow', '⏰')} reminder: ${waitOf(p)} still unanswered after ${str(p.waited_seconds)} s`;
    case 'escalated':
      return `${role} ${paint(style, 'yellow', '⇧')} escalated to ${str(p.to)}: ${waitOf(p)} unanswered after ${str(p.waited_seconds)} s`;
    case 'timed_out':
      return `${role} ${paint(style, 'red', '⌛')} timed out: ${waitOf(p)} went on with the default "${str(p.decision ?? p.answer)}"`;
    case 'gate_decision':
      return `${paint(style, 'cyan', 'gate'.padEnd(ROLE_WIDTH))} ${str(p.decision)}${Array.isArray(p.deltas) && p.deltas.length > 0 ? `: ${p.deltas.join('; ')}` : ''}`;
    case 'model_fallback':
      return `${role} ${paint(style, 'dim', `↪ ${str(p.from_model)} → ${str(p.to_provider)}/${str(p.to_model)} (${str(p.reason)})`)}`;
    case 'scenario_started':
      return `${paint(style, 'bold', `▶ scenario ${str(p.scenario)}`)}`;
    case 'scenario_chained':
    case 'scenario_finished':
    case 'agent_handoff':
    case 'prompt_sent':
    case 'verifier_started':
    case 'verifier_finished':
    case 'budget_consumed':
      return undefined;
    case 'error':
      return `${paint(style, 'bold', paint(style, 'red', '✖ error'))}  ${str(p.message)}${p.retryable ? ' (retryable)' : ''}`;
    default:
      return renderProductEvent(event, role) ?? `${role} ${paint(style, 'dim', `· ${event.kind}`)}`;
  }
}
