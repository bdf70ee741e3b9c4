import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ANSWER_PATH } from '../../answer-links/mint';
import { answerLinkState, useAnswerLink, type LinkOutcome, type LinkState } from '../../jobs/answer-by-link';
import { Refusal } from '../../refusals/refusal';
import { pageResponse } from '../../http/body-schemas';
import { answerPage, disabledPage, retryPage } from '../answer-page';
import type { ApiDeps } from '../deps';
import { MAX_ANSWER_CHARS } from './resume';

/**
 * The headers every answer page is sent with (docs/answer-links.md): no script may run (the page has none), styles
 * only inline, the form posts only here, no site may frame it (a decoy over an Approve button), nothing is sniffed
 * or cached, and the URL (which holds the token) is never sent on as a referrer.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'strict-transport-security': 'max-age=15552000',
};

/** The HTTP status of each state: refused links are 403 (tampered) or 410 (gone for good: used, expired, closed). */
const STATUS: Record<(LinkState | LinkOutcome)['state'], number> = {
  open: 200,
  answered: 200,
  tampered: 403,
  used: 410,
  expired: 410,
  closed: 410,
};

/** The states, in a header too, so a script (or a test) can tell them apart without reading the page. */
export const LINK_STATE_HEADER = 'keel-link-state';

// A wildcard, not `:token`: a token is longer than the router's parameter limit (100 characters). No `/` in a token,
// so a longer path is simply a token that does not verify.
const TokenParams = z.object({ '*': z.string().min(1).max(4_000) });

/** What a browser posts from the page (application/x-www-form-urlencoded); fields of the other kinds are ignored. */
const Submission = z.object({
  answer: z.string().trim().max(MAX_ANSWER_CHARS).optional(),
  decision: z.enum(['approve', 'reject']).optional(),
  comment: z.string().trim().max(2_000).optional(),
  note: z.string().trim().max(2_000).optional(),
});

const pages = {
  200: pageResponse('the answer page: its form, or (after a submission) the thanks'),
  400: pageResponse('the form again, saying what to fix'),
  403: pageResponse('the link was changed or not signed by this deployment (`Keel-Link-State: tampered`)'),
  404: pageResponse('answer links are off here (no secret configured)'),
  410: pageResponse('the link was used or the question answered elsewhere (who answered), expired, or its job ended'),
  503: pageResponse('the job did not take the answer in time; posting again may work'),
};

function send(reply: FastifyReply, status: number, state: string, html: string): FastifyReply {
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .header(LINK_STATE_HEADER, state)
    .type('text/html; charset=utf-8')
    .send(html);
}

/**
 * `GET /answer/:token` and `POST /answer/:token`: the page where a person outside Keel answers a question, decides an
 * approval or completes a task, with no account and no API token: the signed token in the URL is the authority. No
 * cookie is read or set, so a cross-site form cannot act without the token itself (no CSRF token is needed).
 */
export function answerLinkRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Scoped to this plugin: a browser's form body, parsed into its fields.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    app.get(
      `${ANSWER_PATH}*`,
      { config: { public: true }, schema: { params: TokenParams, response: pages } },
      async (request, reply) => {
        const settings = deps.answerLinks;
        if (!settings) return send(reply, 404, 'disabled', disabledPage());
        const state = await answerLinkState(deps, settings, request.params['*']);
        return send(reply, STATUS[state.state], state.state, answerPage(state));
      },
    );

    app.post(
      `${ANSWER_PATH}*`,
      { config: { public: true }, schema: { params: TokenParams, response: pages } },
      async (request, reply) => {
        const settings = deps.answerLinks;
        if (!settings) return send(reply, 404, 'disabled', disabledPage());
        const token = request.params['*'];
        const state = await answerLinkState(deps, settings, token);
        if (state.state !== 'open') return send(reply, STATUS[state.state], state.state, answerPage(state));
        const parsed = Submission.safeParse(request.body ?? {});
        const problem = !parsed.success
          ? 'The form was not complete; please fill it in again.'
          : state.target.kind === 'question' && !parsed.data.answer
            ? 'Please write an answer.'
            : state.target.kind === 'approval' && !parsed.data.decision
              ? 'Please choose Approve or Reject.'
              : undefined;
        if (problem || !parsed.success) return send(reply, 400, 'open', answerPage(state, problem));
        try {
          const outcome = await useAnswerLink(deps, settings, token, parsed.data, request.log);
          return send(reply, STATUS[outcome.state], outcome.state, answerPage(outcome));
        } catch (err) {
          if (err instanceof Refusal && err.kind === 'unavailable')
            return send(reply, 503, 'open', retryPage(err.message));
          throw err;
        }
      },
    );
  };
}
