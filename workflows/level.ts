import {
  ActivityCancellationType,
  ApplicationFailure,
  isCancellation,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { LevelInput, LevelResult } from './definitions';
import { createEmitter } from './emit';
import type { Rung } from '../routing/catalog/types';
import { strongestRung } from '../routing/resolve/effort';
import type { ChatMessage } from '../routing/chat-types';
import { levelMessages, parseVerdict, preview, WRITE_FILE_TOOL } from './prompts';

const { routeLevel, callModel } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // callModel heartbeats every 5 s; a worker that dies mid-call is noticed within this.
  heartbeatTimeout: '20 seconds',
  // A cancelled level waits until its model call has really been aborted, so no paid call outlives its job.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 4 },
});

const { writeWorkspaceFile } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumAttempts: 5 },
});

/** Error type for an executor whose model keeps calling tools past the round limit. */
export const TOOL_ROUNDS_EXHAUSTED = 'ToolRoundsExhausted';

/**
 * One level run: route, call the model (L4 runs a write_file tool loop), emit the lifecycle events.
 * Runs as a child workflow with id `<job_id>/<role>/<attempt>`; deterministic, all I/O in activities.
 */
export async function runLevel(input: LevelInput): Promise<LevelResult> {
  const levelId = workflowInfo().workflowId;
  const emit = createEmitter(input.ids, levelId);
  const { role, attempt } = input;
  await emit(role, 'node_started', { node_id: levelId, role, attempt });
  const route = await routeLevel({
    role,
    budget: input.modelTier,
    requirements: input.requirements,
    effort: input.effort,
  });
  const intended = route.candidates[0];
  await emit(role, 'routing_decision', {
    level_id: levelId,
    provider: intended?.provider ?? '',
    model: intended?.model ?? '',
    model_display_name: intended?.display_name ?? '',
    tier: intended?.tier ?? '',
    model_candidates: route.candidates.map((c) => ({
      provider: c.provider,
      model: c.model,
      tier: c.tier,
      effort: c.effort ?? null,
    })),
    band: route.band,
    band_dropped: route.bandDropped,
    offline: route.offline,
  });
  const started = await emit(role, 'level_started', { level_id: levelId, role, attempt });

  const messages: ChatMessage[] = levelMessages(input);
  const tools = role.startsWith('L4.') ? [WRITE_FILE_TOOL] : undefined;
  const createdFiles: string[] = [];
  let costUsd = 0;
  let reasoningTokens = 0;
  let effort: Rung | undefined;
  let answeredBy = { provider: intended?.provider ?? '', model: intended?.model ?? '' };
  let candidates = route.candidates;
  let output = '';
  try {
    const maxRounds = input.maxToolRounds ?? 8;
    for (let round = 1; ; round += 1) {
      const reply = await callModel({ candidates, messages, tools });
      for (const hop of reply.hops) await emit(role, 'model_fallback', { level_id: levelId, ...hop });
      costUsd += reply.costUsd;
      reasoningTokens += reply.usage.reasoningTokens;
      effort = strongestRung([effort, reply.requestedEffort]);
      answeredBy = { provider: reply.provider, model: reply.model };
      // After the first successful turn the history is shaped for this vendor: stay on this model.
      candidates = candidates.filter((c) => c.provider === reply.provider && c.model === reply.catalogModel);
      if (reply.toolCalls.length === 0) {
        output = reply.content ?? '';
        break;
      }
      if (round > maxRounds) {
        throw ApplicationFailure.create({
          type: TOOL_ROUNDS_EXHAUSTED,
          message: `${role} still calling tools after ${maxRounds} rounds`,
          nonRetryable: true,
        });
      }
      messages.push({ role: 'assistant', content: reply.content, tool_calls: reply.toolCalls });
      for (const call of reply.toolCalls) {
        await emit(role, 'tool_call', { level_id: levelId, call_id: call.id, name: call.function.name });
        const result = await writeWorkspaceFile({ jobId: input.ids.job_id, call });
        if (result.ok) {
          createdFiles.push(result.path);
          await emit(role, 'file_created', { path: result.path, sha256: result.sha256, size_bytes: result.sizeBytes });
        }
        await emit(role, 'tool_result', { level_id: levelId, call_id: call.id, ok: result.ok });
        messages.push({ role: 'tool', tool_call_id: call.id, content: result.message });
      }
    }
  } catch (err) {
    if (!isCancellation(err)) {
      await emit(
        role,
        'level_finished',
        {
          ok: false,
          attempt,
          duration_ms: 0,
          cost_usd: costUsd,
          output_preview: preview((err as Error).message),
        },
        { durationSince: started.occurred_at },
      );
      await emit(role, 'node_finished', { node_id: levelId, ok: false });
    }
    throw err;
  }

  const verdict = role.startsWith('L3.') ? parseVerdict(output).verdict : undefined;
  await emit(
    role,
    'level_finished',
    {
      ok: true,
      attempt,
      duration_ms: 0,
      cost_usd: costUsd,
      output_preview: preview(output),
      provider: answeredBy.provider,
      model: answeredBy.model,
      ...(verdict ? { verdict } : {}),
      ...(effort ? { effort } : {}),
      reasoning_tokens: reasoningTokens,
    },
    { durationSince: started.occurred_at },
  );
  await emit(role, 'node_finished', { node_id: levelId, ok: true });
  return { role, ok: true, output, verdict, createdFiles, costUsd, effort, reasoningTokens, ...answeredBy };
}
