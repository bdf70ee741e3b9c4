import { approvalMessage, questionMessage, waitStepMessage } from './messages';

const url = 'https://keel.example.com/answer/abc.def';

test('a question and an approval carry their answer link when the event has one', () => {
  for (const message of [
    questionMessage('job-1', 'call-1', 'Which colour?', url),
    approvalMessage('ap-1', 'deploy', 'asked', url),
  ]) {
    expect(message.text).toContain(`Answer link: ${url}`);
    expect(JSON.stringify(message.blocks)).toContain(`<${url}|this answer link>`);
  }
});

test('without a link the messages are as before', () => {
  for (const message of [
    questionMessage('job-1', 'call-1', 'Which colour?'),
    approvalMessage('ap-1', 'deploy', 'asked'),
  ]) {
    expect(message.text).not.toContain('Answer link');
    expect(JSON.stringify(message.blocks)).not.toContain('answer link');
  }
});

test('an escalation names the people its target stands for, and the target alone when none were found', () => {
  const about = { waitingFor: 'approval', text: 'write src/a.md', waitedSeconds: 600 };
  expect(
    waitStepMessage('escalated', { ...about, to: 'project_owners', people: ['ana@example.test', 'zoe@example.test'] })
      .text,
  ).toBe(
    'Escalated to the project owners (ana@example.test, zoe@example.test): the approval "write src/a.md" is still unanswered after 10 min.',
  );
  expect(waitStepMessage('escalated', { ...about, to: 'role:release-managers', people: [] }).text).toMatch(
    /^Escalated to role:release-managers: /,
  );
});
