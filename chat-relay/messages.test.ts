import { approvalMessage, questionMessage } from './messages';

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
