/**
 * A property-based fuzzer of a running service, driven only by its published OpenAPI document: every operation, with
 * the service's credentials and without any. Requests are drawn by fast-check: either a sample of the operation's own
 * schemas (json-schema-faker, seeded by fast-check) or the same with fields replaced by arbitrary JSON and strings.
 * Every answer must be below 500 and must match the body the document declares for its status (ajv).
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { generateSync, JsonSchema } from 'json-schema-faker' with { 'resolution-mode': 'import' };

/** The sampler is an ES module only: loaded once by `loadSampler()` before requests are drawn. */
type Sampler = { generateSync: typeof generateSync };
let sampler: Sampler | undefined;

export async function loadSampler(): Promise<void> {
  sampler ??= (await import('json-schema-faker')) as Sampler;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

export interface Target {
  name: string;
  baseUrl: string;
  document: OpenApiDocument;
  /** Headers that make a request the service's own (a bearer token, a session cookie). */
  credentials: Record<string, string>;
}

interface FuzzRequest {
  target: Target;
  method: string;
  path: string;
  operation: Operation;
  url: string;
  body?: string;
  authenticated: boolean;
}

export interface Finding {
  request: string;
  status: number | 'no answer';
  problem: string;
}

/** Findings grouped as `service METHOD path → status: problem`, one line per distinct kind, for a readable failure. */
export function distinct(findings: Finding[]): string[] {
  const lines = new Set<string>();
  for (const finding of findings) {
    const [service, rest] = finding.request.split(': ', 2) as [string, string];
    const [method, url] = rest.split(' ', 2) as [string, string];
    lines.add(`${service} ${method} ${url.split('?')[0]} → ${finding.status}: ${finding.problem.slice(0, 160)}`);
  }
  return [...lines].sort();
}

export interface FuzzReport {
  requests: number;
  operations: number;
  byStatus: Record<string, number>;
  /** Per service, how many requests sent with its credentials succeeded (2xx): proof the credentials took. */
  authenticatedSuccesses: Record<string, number>;
  serverErrors: Finding[];
  schemaViolations: Finding[];
  /** Requests with no answer within the per-request limit. */
  hangs: Finding[];
}

/** A fixed value per schema and seed: the sampler's own PRNG, seeded by fast-check so runs replay from their seed. */
function sample(schema: JsonSchema | undefined, seed: number): unknown {
  if (schema === undefined) return undefined;
  try {
    return sampler!.generateSync(schema, { seed, maxDepth: 4, maxDefaultItems: 2, optionalsProbability: 0.5 });
  } catch {
    return undefined;
  }
}

/** Something other than what the schema asks for: any JSON, odd strings (NUL, huge numbers, paths, unicode). */
const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    '../../etc/passwd',
    '2147483648',
    '-1',
    '1e309',
    'null',
    '%',
    ' ',
    'wf-1',
    'job-x',
    '__proto__',
  ),
  fc.bigInt().map(String),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(fc.jsonValue({ maxDepth: 3 }), hostileString);

function operationsOf(target: Target): Array<{ method: string; path: string; operation: Operation }> {
  const list: Array<{ method: string; path: string; operation: Operation }> = [];
  for (const [path, operations] of Object.entries(target.document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (METHODS.has(method)) list.push({ method, path, operation });
    }
  }
  return list;
}

/** Requests for one operation: sampled from its schemas, each field kept or replaced by something hostile. */
function requestsFor(target: Target, method: string, path: string, operation: Operation): fc.Arbitrary<FuzzRequest> {
  const parameters = (operation.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  return fc
    .record({
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      authenticated: fc.boolean(),
      hostileParams: fc.array(fc.option(hostileValue, { nil: undefined, freq: 3 }), {
        minLength: parameters.length,
        maxLength: parameters.length,
      }),
      dropOptional: fc.array(fc.boolean(), { minLength: parameters.length, maxLength: parameters.length }),
      body: fc.oneof(
        { weight: 3, arbitrary: fc.constant<'sampled'>('sampled') },
        { weight: 1, arbitrary: fc.record({ hostileField: fc.string({ maxLength: 12 }), value: hostileValue }) },
        { weight: 1, arbitrary: hostileValue.map((value) => ({ whole: value })) },
      ),
    })
    .map(({ seed, authenticated, hostileParams, dropOptional, body }) => {
      let url = path;
      const query = new URLSearchParams();
      parameters.forEach((parameter, i) => {
        const hostile = hostileParams[i];
        const value = hostile !== undefined ? hostile : sample(parameter.schema, seed + i);
        const text = typeof value === 'string' ? value : JSON.stringify(value ?? 'x');
        if (parameter.in === 'path') {
          // A wildcard (`{*}`) takes a path; any other parameter one segment.
          const encoded =
            parameter.name === '*' ? text.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(text);
          url = url.replace(`{${parameter.name}}`, encoded || 'x');
        } else if (parameter.required || !dropOptional[i]) {
          query.set(parameter.name, text);
        }
      });
      url = url.replace(/\{[^}]+\}/g, 'x');
      let payload: unknown;
      if (bodySchema !== undefined || method !== 'get') {
        const sampled = sample(bodySchema, seed) ?? {};
        if (body === 'sampled') payload = sampled;
        else if ('whole' in body) payload = body.whole;
        else
          payload =
            sampled !== null && typeof sampled === 'object' && !Array.isArray(sampled)
              ? { ...sampled, [body.hostileField]: body.value }
              : body.value;
      }
      const search = query.toString();
      return {
        target,
        method: method.toUpperCase(),
        path,
        operation,
        url: `${target.baseUrl}${url}${search ? `?${search}` : ''}`,
        body: method === 'get' || method === 'delete' ? undefined : JSON.stringify(payload ?? null),
        authenticated,
      };
    });
}

/** Every operation of every target, `perOperation` requests each (drawn from `seed`), in a stable order. */
export function drawRequests(targets: Target[], perOperation: number, seed: number): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  let n = 0;
  for (const target of targets) {
    for (const { method, path, operation } of operationsOf(target)) {
      requests.push(
        ...fc.sample(requestsFor(target, method, path, operation), { numRuns: perOperation, seed: seed + n++ }),
      );
    }
  }
  return requests;
}

/** Whether a declared media range (`application/json`, `text/*`, `*\/*`) covers a response's media type. */
function mediaMatches(range: string, media: string): boolean {
  if (range === '*/*' || range === media) return true;
  return range.endsWith('/*') && media.startsWith(range.slice(0, -1));
}

/** A schema that says something of a body: more than a description. */
function describes(schema: JsonSchema | undefined): boolean {
  return typeof schema === 'object' && Object.keys(schema).some((key) => key !== 'description' && key !== 'title');
}

function declaredResponse(operation: Operation, status: number) {
  const responses = operation.responses ?? {};
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

/** Sends the requests, `concurrency` at a time, and checks every answer against the document. */
export async function fuzz(
  requests: FuzzRequest[],
  options: { concurrency: number; timeoutMs: number },
): Promise<FuzzReport> {
  const ajv = new Ajv({ strict: false, allErrors: false });
  addFormats(ajv);
  const validators = new WeakMap<object, ReturnType<Ajv['compile']>>();
  const validatorOf = (schema: JsonSchema) => {
    if (typeof schema !== 'object') return undefined;
    let validate = validators.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      validators.set(schema, validate);
    }
    return validate;
  };
  const report: FuzzReport = {
    requests: 0,
    operations: new Set(requests.map((r) => `${r.target.name} ${r.method} ${r.path}`)).size,
    byStatus: {},
    authenticatedSuccesses: Object.fromEntries(requests.map((r) => [r.target.name, 0])),
    serverErrors: [],
    schemaViolations: [],
    hangs: [],
  };

  async function send(request: FuzzRequest): Promise<void> {
    const label = `${request.target.name}: ${request.method} ${request.path} ${request.url.slice(request.target.baseUrl.length)}${request.authenticated ? ' (authenticated)' : ''}${request.body !== undefined ? ` body ${request.body.slice(0, 200)}` : ''}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(request.authenticated ? request.target.credentials : {}),
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (err) {
      report.requests += 1;
      report.hangs.push({ request: label, status: 'no answer', problem: String((err as Error).message) });
      return;
    }
    report.requests += 1;
    report.byStatus[response.status] = (report.byStatus[response.status] ?? 0) + 1;
    if (request.authenticated && response.ok) report.authenticatedSuccesses[request.target.name]! += 1;
    const type = response.headers.get('content-type') ?? '';
    const media = type.split(';', 1)[0]!.trim().toLowerCase();
    const declared = declaredResponse(request.operation, response.status);
    // A success must be one the document describes: its status, its media type, and a schema of its body.
    if (response.ok && declared) {
      const content = declared.content ?? {};
      const listed = Object.keys(content).find((range) => mediaMatches(range, media));
      const problem =
        Object.keys(content).length === 0
          ? 'a body on a response the document declares without one'
          : listed === undefined
            ? `media type ${media || '(none)'} not among ${Object.keys(content).join(', ')}`
            : !describes(content[listed]!.schema)
              ? 'success body not described by a schema'
              : undefined;
      if (problem !== undefined && !(Object.keys(content).length === 0 && response.status === 204)) {
        report.schemaViolations.push({ request: label, status: response.status, problem });
        await response.body?.cancel();
        return;
      }
    }
    // A stream stays open by design; its answer is the status and headers.
    if (media === 'text/event-stream') {
      await response.body?.cancel();
      return;
    }
    const text = await response.text();
    // A 5xx is a server error unless the operation names that very status (a 503 for a part this process runs
    // without, such as the knowledge hub); the `5XX` every operation carries only says what shape an error has.
    if (response.status >= 500 && request.operation.responses?.[String(response.status)] === undefined) {
      report.serverErrors.push({ request: label, status: response.status, problem: text.slice(0, 300) });
      return;
    }
    if (!declared) {
      if (response.status >= 300 && response.status < 400) return;
      report.schemaViolations.push({ request: label, status: response.status, problem: 'status not declared' });
      return;
    }
    const schema = declared.content?.['application/json']?.schema;
    if (schema === undefined || !type.startsWith('application/json')) return;
    const validate = validatorOf(schema);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      report.schemaViolations.push({
        request: label,
        status: response.status,
        problem: `not JSON: ${text.slice(0, 200)}`,
      });
      return;
    }
    if (validate && !validate(body)) {
      report.schemaViolations.push({
        request: label,
        status: response.status,
        problem: `${ajv.errorsText(validate.errors)}; body ${text.slice(0, 300)}`,
      });
    }
  }

  let next = 0;
  const workers = Array.from({ length: options.concurrency }, async () => {
    while (next < requests.length) await send(requests[next++]!);
  });
  await Promise.all(workers);
  return report;
}
