import { answerPage } from './answer-page';

const hostile = `<script>alert(1)</script> & "quotes" 'apos'`;

test('everything a job or a person wrote is escaped on every page', () => {
  const pages = [
    answerPage({
      state: 'open',
      target: { kind: 'question', job_id: hostile, call_id: 'c', question: hostile },
      expires_at: 2_000_000_000,
    }),
    answerPage({
      state: 'open',
      target: { kind: 'approval', job_id: 'j', approval_id: 'a', action: hostile, reason: hostile },
      expires_at: 2_000_000_000,
    }),
    answerPage({
      state: 'used',
      target: { kind: 'task', job_id: 'j', task_id: 't', title: hostile, detail: hostile, assignee: hostile },
      answered_by: hostile,
    }),
    answerPage({ state: 'closed', reason: hostile }),
    answerPage(
      {
        state: 'open',
        target: { kind: 'question', job_id: 'j', call_id: 'c', question: 'q' },
        expires_at: 2_000_000_000,
      },
      hostile,
    ),
  ];
  for (const html of pages) {
    expect(html).not.toContain('<script>');
    expect(html).not.toContain(`"quotes"`);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &apos;apos&apos;');
  }
});

test('the page has no script, and its form posts back to its own URL', () => {
  const html = answerPage({
    state: 'open',
    target: { kind: 'approval', job_id: 'j', approval_id: 'a', action: 'deploy', reason: 'asked' },
    expires_at: 2_000_000_000,
  });
  expect(html).not.toMatch(/<script/i);
  expect(html).toContain('<form method="post">');
  expect(html).not.toContain('action=');
  expect(html).toContain('name="decision" value="approve"');
  expect(html).toContain('name="decision" value="reject"');
});

test('each refusal says which it is', () => {
  expect(answerPage({ state: 'tampered' })).toContain('This link is not valid');
  expect(
    answerPage({
      state: 'expired',
      target: { kind: 'question', job_id: 'j', call_id: 'c', question: 'q' },
      expired_at: 1_000,
    }),
  ).toContain('This link has expired');
  expect(
    answerPage({
      state: 'used',
      target: { kind: 'question', job_id: 'j', call_id: 'c', question: 'q' },
      answered_by: 'dev',
    }),
  ).toContain('already answered by dev');
});
