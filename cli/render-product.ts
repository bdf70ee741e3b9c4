import type { EventEnvelope } from '../events/envelope';

/** Terminal lines for the product-build kinds (docs/product-builds.md); undefined for any other kind. */
/** The reroute of every level of a job when no paid provider is configured: said once per job, not per level. */
export const OFFLINE_REROUTE = 'no_paid_provider_configured';

export function renderProductEvent(event: EventEnvelope, role: string): string | undefined {
  const p = event.payload;
  const s = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null));
  switch (event.kind) {
    case 'scope_checked':
      return `${role} scope: ${s(p.verdict)}${p.rule ? ` (rule "${s(p.rule)}")` : ''}`;
    case 'scope_confirmed':
      return `${role} scope ${p.confirmed ? 'confirmed' : 'declined'} by a person`;
    case 'clarify_checked':
      return `${role} clarity: ${p.clear ? 'clear' : 'asking one question'} — ${s(p.reason)}`;
    case 'clarify_confirmed':
      return `${role} clarified: ${s(p.answer)}`;
    case 'solutions_resolved':
      return `${role} solution: ${s(p.chosen)} — ${s(p.reason)}`;
    case 'template_selected':
      return `${role} template ${s(p.template_id)} — ${s(p.reason)}`;
    case 'template_scaffolded':
      return `${role} scaffolded ${Array.isArray(p.files) ? p.files.length : 0} files`;
    case 'design_selected':
      return `${role} design ${s(p.design_id)} — ${s(p.reason)}`;
    case 'design_applied':
      return `${role} design tokens → ${s(p.path)} (${s(p.layout)})`;
    case 'build_verify_started':
      return `${role} building: ${Array.isArray(p.commands) ? p.commands.join(' && ') : ''}`;
    case 'build_verify_passed':
      return `${role} ✓ build and tests passed in ${s(p.duration_ms)} ms`;
    case 'build_verify_failed': {
      const last = s(p.output_tail).trim().split('\n').slice(-3).join(' | ');
      return `${role} ✗ ${s(p.step)} failed (exit ${s(p.exit_code)}): ${last}`;
    }
    case 'vercel_deployed':
      return `${role} deployed: ${s(p.url)}`;
    case 'vercel_deploy_failed':
      return `${role} deploy failed${p.status ? ` (${s(p.status)})` : ''}: ${s(p.message)}`;
    case 'human_task_assigned':
      return `${role} task for ${s(p.assignee)}: ${s(p.title)} (${s(p.task_id)})`;
    case 'ui_action':
      return p.action === 'open_url' ? `${role} open ${s(p.target)}` : undefined;
    case 'provider_fallback':
      return p.reason === OFFLINE_REROUTE
        ? `${role} ↪ no paid provider is configured: the offline demo model (${s(p.to_provider)}/${s(p.to_model)}) answers the levels that asked for one`
        : `${role} ↪ rerouted to ${s(p.to_provider)}/${s(p.to_model)} (${s(p.reason)})`;
    default:
      return undefined;
  }
}
