import fs from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import { listDesigns } from '../db/designs';
import { recordJobFile } from '../db/files';
import { createHumanTask as storeHumanTask } from '../db/human-tasks';
import { findJob } from '../db/jobs';
import { jobsWithRules } from '../db/workflow-rules';
import { DEFAULT_BUILD_LIMITS, verifyBuild, type BuildOutcome } from '../products/build-runner';
import { designSchema, loadShippedDesigns, renderDesign, type Design } from '../products/design-catalog';
import { checkScope, rulesIn, type ScopeCheck } from '../products/gates';
import { chooseByKeywords, isUndecided } from '../products/select';
import { DEFAULT_VERCEL_TOKEN_SECRET, type ProductSettings } from '../products/settings';
import { noSecrets, type SecretStore } from '../secrets/store';
import { loadTemplates, scaffoldFiles, type Template } from '../products/template-catalog';
import { deployStaticSite, VERCEL_API_URL, type DeployOutcome } from '../products/vercel';
import { writeFiles, type WrittenFile } from '../products/workspace-files';
import { ApplicationFailure } from '@temporalio/activity';

export interface Selection {
  id: string;
  name: string;
  reason: string;
  alternatives: Array<{ id: string; score: number }>;
  /** Nothing in the request pointed at any candidate (the clarity gate asks then). */
  undecided: boolean;
}

const DEFAULT_SETTINGS: ProductSettings = {
  buildLimits: DEFAULT_BUILD_LIMITS,
  vercel: {
    apiUrl: VERCEL_API_URL,
    pollIntervalMs: 2_000,
    readyTimeoutMs: 300_000,
    tokenSecretId: DEFAULT_VERCEL_TOKEN_SECRET,
  },
};

/** A pin that names nothing is the operator's mistake: fail the job with a message, do not guess. */
function unknownPin(kind: string, pin: string, known: string[]): never {
  throw ApplicationFailure.create({
    type: 'UnknownPin',
    message: `${kind} ${JSON.stringify(pin)} is not in the catalog (known: ${known.join(', ')})`,
    nonRetryable: true,
  });
}

/** A template or design chosen by the request's keywords, or the pinned one; an unknown pin fails the job. */
function select<T extends { id: string; name: string; keywords: readonly string[] }>(
  kind: string,
  items: T[],
  request: string,
  pin: string | undefined,
): Selection {
  const choice = chooseByKeywords(items, request, pin);
  if (!choice) {
    return unknownPin(
      kind,
      pin ?? '',
      items.map((item) => item.id),
    );
  }
  return {
    id: choice.chosen.id,
    name: choice.chosen.name,
    reason: choice.reason,
    alternatives: choice.alternatives,
    undecided: pin === undefined && isUndecided(choice),
  };
}

/** The activities of product builds: gates' inputs, templates, designs, the build sandbox, deploys, human tasks. */
export function productActivities(deps: {
  pool: Pool;
  workspaceRoot: string;
  products?: ProductSettings;
  secrets?: SecretStore;
}) {
  const settings = deps.products ?? DEFAULT_SETTINGS;
  const secrets = deps.secrets ?? noSecrets;
  const workspaceOf = (jobId: string) => path.join(deps.workspaceRoot, jobId);
  const templateById = async (id: string): Promise<Template> => {
    const templates = await loadTemplates();
    return (
      templates.find((t) => t.id === id) ??
      unknownPin(
        'template',
        id,
        templates.map((t) => t.id),
      )
    );
  };
  const designsFor = async (jobId: string): Promise<Design[]> => {
    const job = await findJob(deps.pool, jobId);
    const own = job?.org_id ? await listDesigns(deps.pool, job.org_id) : [];
    return [
      ...(await loadShippedDesigns()),
      ...own.map((row) =>
        designSchema.parse({
          id: row.design_id,
          name: row.name,
          description: row.description,
          keywords: row.keywords,
          tokens: row.tokens,
          layout: row.layout,
        }),
      ),
    ];
  };
  const record = async (jobId: string, files: WrittenFile[]) => {
    for (const f of files)
      await recordJobFile(deps.pool, jobId, { path: f.path, sha256: f.sha256, sizeBytes: f.size_bytes });
  };

  return {
    /** The scope gate: the request against every rule kept in the job's workflow. */
    async checkWorkflowScope(input: { workflowId: string; request: string }): Promise<ScopeCheck> {
      const rules: string[] = [];
      for (const jobId of await jobsWithRules(deps.pool, input.workflowId)) {
        try {
          rules.push(...rulesIn(await fs.readFile(path.join(workspaceOf(jobId), 'rules.md'), 'utf8')));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      return checkScope(input.request, rules);
    },

    async selectTemplate(input: { request: string; pin?: string }): Promise<Selection> {
      const templates = await loadTemplates();
      return select('template', templates, input.request, input.pin);
    },

    /** Writes the template's files into the job's workspace (idempotent: the same bytes again). */
    async scaffoldTemplate(input: { jobId: string; templateId: string; projectName: string }): Promise<{
      files: WrittenFile[];
      build: string;
      test: string;
      feature: string;
      publish: string | null;
      designPath: string;
    }> {
      const template = await templateById(input.templateId);
      const files = await writeFiles(workspaceOf(input.jobId), scaffoldFiles(template, input.projectName));
      await record(input.jobId, files);
      return {
        files,
        build: template.build,
        test: template.test,
        feature: template.feature,
        publish: template.publish ?? null,
        designPath: template.design.path,
      };
    },

    async selectDesign(input: { jobId: string; request: string; pin?: string }): Promise<Selection> {
      const designs = await designsFor(input.jobId);
      return select('design', designs, input.request, input.pin);
    },

    /** Writes the design's tokens where the template wants them, in the template's format. */
    async applyDesign(input: { jobId: string; templateId: string; designId: string }): Promise<{
      file: WrittenFile;
      layout: string;
      tokens: Design['tokens'];
    }> {
      const template = await templateById(input.templateId);
      const design = (await designsFor(input.jobId)).find((d) => d.id === input.designId);
      if (!design) return unknownPin('design', input.designId, []);
      const [file] = await writeFiles(workspaceOf(input.jobId), [
        { path: template.design.path, content: renderDesign(design, template.design.format) },
      ]);
      await record(input.jobId, [file!]);
      return { file: file!, layout: design.layout, tokens: design.tokens };
    },

    /** The template's build and test commands in the sandbox, against the job's workspace. Heartbeats while running. */
    async runBuildVerification(input: { jobId: string; templateId: string }): Promise<BuildOutcome> {
      const template = await templateById(input.templateId);
      return verifyBuild(workspaceOf(input.jobId), template, settings.buildLimits);
    },

    /**
     * Publishes the template's static output to Vercel. The token is looked up in the secrets store here, by id, so it
     * never enters the workflow's history; without one, a failure the workflow turns into a human task ("add the
     * Vercel token"), and a later call reads the store again.
     */
    async deployToVercel(input: {
      jobId: string;
      templateId: string;
      name: string;
    }): Promise<DeployOutcome & { missingToken?: boolean }> {
      const template = await templateById(input.templateId);
      if (!template.publish) {
        return { ok: false, status: null, message: `template ${template.id} has no static output to deploy` };
      }
      const secretId = settings.vercel.tokenSecretId;
      const token = await secrets.get(secretId);
      if (!token) {
        return {
          ok: false,
          status: null,
          missingToken: true,
          message: `no Vercel token: add secret ${secretId} to the secrets store`,
        };
      }
      return deployStaticSite(
        { ...settings.vercel, token },
        path.join(workspaceOf(input.jobId), template.publish),
        input.name,
      );
    },

    /** Writes the durable human-task record a workflow waits on; idempotent on `task_id` (chosen by the workflow). */
    async createHumanTask(input: {
      task_id: string;
      job_id: string;
      workflow_id: string;
      waiting_workflow_id: string;
      role: string;
      title: string;
      detail: string;
      /** Absent: the job's creator. */
      assignee?: string;
      /** From when the task is created. */
      due_in_hours?: number;
    }): Promise<{ assignee: string; due_at: string | null }> {
      const job = await findJob(deps.pool, input.job_id);
      const assignee = input.assignee ?? job?.created_by ?? 'user';
      const row = await storeHumanTask(deps.pool, {
        taskId: input.task_id,
        jobId: input.job_id,
        workflowId: input.workflow_id,
        waitingWorkflowId: input.waiting_workflow_id,
        role: input.role,
        title: input.title,
        detail: input.detail,
        assignee,
        dueAt: input.due_in_hours !== undefined ? new Date(Date.now() + input.due_in_hours * 3_600_000) : null,
      });
      return { assignee: row.assignee, due_at: row.due_at ? row.due_at.toISOString() : null };
    },
  };
}
