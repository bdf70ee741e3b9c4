import { escapeUTF8 } from 'entities';
import type { LinkOutcome, LinkState, LinkTarget } from '../jobs/answer-by-link';

/**
 * The answer page's HTML (docs/answer-links.md): one small document per state, no script, an inline stylesheet only.
 * Everything that came from a job, a model or a person passes through `esc`.
 */
const esc = (value: string): string => escapeUTF8(value);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1c1c1c}
h1{font-size:1.4rem}.muted{color:#555}.box{white-space:pre-wrap;border-left:4px solid #888;padding:.5rem 1rem;background:#f6f6f6}
textarea,input[type=text]{width:100%;box-sizing:border-box;font:inherit}button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}
.error{color:#a00}`;

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex">
<title>${esc(title)} · Keel</title><style>${STYLE}</style></head>
<body><h1>${esc(title)}</h1>
${body}
</body></html>
`;
}

function describe(target: LinkTarget): string {
  const job = `<p class="muted">Job <code>${esc(target.job_id)}</code></p>`;
  if (target.kind === 'question') return `${job}<p>The job asks:</p><div class="box">${esc(target.question)}</div>`;
  if (target.kind === 'approval') {
    return `${job}<p>The job asks for approval to:</p><div class="box">${esc(target.action)}</div><p>Why: ${esc(target.reason)}</p>`;
  }
  return `${job}<p>A task for ${esc(target.assignee)}:</p><div class="box"><strong>${esc(target.title)}</strong>\n${esc(target.detail)}</div>`;
}

function form(target: LinkTarget, error?: string): string {
  const problem = error ? `<p class="error">${esc(error)}</p>` : '';
  // No action attribute: the form posts back to this page's own URL, which holds the signed token.
  if (target.kind === 'question') {
    return `${problem}<form method="post"><p><label for="answer">Your answer</label><br>
<textarea id="answer" name="answer" rows="5" required maxlength="10000"></textarea></p>
<p><button type="submit">Send answer</button></p></form>`;
  }
  if (target.kind === 'approval') {
    return `${problem}<form method="post"><p><label for="comment">Comment (optional)</label><br>
<input type="text" id="comment" name="comment" maxlength="2000"></p>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="reject">Reject</button></p></form>`;
  }
  return `${problem}<form method="post"><p><label for="note">Note (optional)</label><br>
<input type="text" id="note" name="note" maxlength="2000"></p>
<p><button type="submit">Mark as done</button></p></form>`;
}

const who = (answeredBy: string | null): string => (answeredBy ? `by ${esc(answeredBy)}` : 'through another channel');

/** The page for a link's state or a submission's outcome. */
export function answerPage(state: LinkState | LinkOutcome, error?: string): string {
  switch (state.state) {
    case 'open':
      return document(
        'Keel needs your answer',
        `${describe(state.target)}${form(state.target, error)}<p class="muted">This link works once, until ${esc(
          new Date(state.expires_at * 1000).toISOString(),
        )}.</p>`,
      );
    case 'answered':
      return document('Thank you', `${describe(state.target)}<p>Your answer was taken. You may close this page.</p>`);
    case 'used':
      return document(
        'Already answered',
        `${describe(state.target)}<p>This link cannot be used: it was already answered ${who(state.answered_by)}.</p>`,
      );
    case 'expired':
      return document(
        'This link has expired',
        `<p>This link expired at ${esc(new Date(state.expired_at * 1000).toISOString())}. Ask the team for a new one, or answer in Keel.</p>`,
      );
    case 'tampered':
      return document(
        'This link is not valid',
        '<p>This link was changed or was not issued by this Keel: it cannot be used. Check that you copied all of it.</p>',
      );
    case 'closed':
      return document('Nothing to answer', `<p>This link cannot be used: ${esc(state.reason)}.</p>`);
  }
}

/** A page for a fault that a retry may fix (the job did not take the answer in time). */
export function retryPage(message: string): string {
  return document('Please try again', `<p>${esc(message)}</p>`);
}

/** The page when this deployment has no answer-link secret. */
export function disabledPage(): string {
  return document('Answer links are off', '<p>This Keel does not serve answer links.</p>');
}
