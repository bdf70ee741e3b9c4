import type { EventEnvelope } from '../events/envelope';
import { renderProductEvent } from './render-product';

export interface RenderStyle {
  color: boolean;
}

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

/**
 * One terminal line per event worth showing, or undefined for events too fine-grained for a person
 * (node bookkeeping, tool results). Unknown kinds get a generic row: the catalog grows.
 */
export function renderEvent(event: EventEnvelope, style: RenderStyle): string | undefined {
  const p = event.payload;
  const role = paint(style, 'cyan', event.agent_role.padEnd(14));
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
      const verdict = p.verdict ? ` verdict: ${str(p.verdict)}` : '';
      return `${role} ${mark} ${str(p.duration_ms)} ms${verdict}  ${paint(style, 'dim', str(p.output_preview))}`;
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
    case 'gate_decision':
      return `${paint(style, 'cyan', 'gate'.padEnd(14))} ${str(p.decision)}${Array.isArray(p.deltas) && p.deltas.length > 0 ? `: ${p.deltas.join('; ')}` : ''}`;
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
