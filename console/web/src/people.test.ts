import { expect, test } from '@jest/globals';
import { personLabel } from './people';

const people = new Map([
  ['u-1', { id: 'u-1', name: 'Ada Lovelace', email: 'ada@example.test' }],
  ['u-2', { id: 'u-2', name: null, email: 'bob@example.test' }],
  ['u-3', { id: 'u-3', name: '  ', email: 'eve@example.test' }],
]);

test('a person is named by name, else by email', () => {
  expect(personLabel('u-1', people)).toBe('Ada Lovelace');
  expect(personLabel('u-2', people)).toBe('bob@example.test');
  expect(personLabel('u-3', people)).toBe('eve@example.test');
});

test('an id the identity service does not know is an API token user; before the lookup answers, the id shows', () => {
  expect(personLabel('dev', people)).toBe('API token dev');
  expect(personLabel('u-1', undefined)).toBe('u-1');
});

test('a team-chat person is named by their chat user id, looked up or not', () => {
  expect(personLabel('chatapp:U024BE7LH', people)).toBe('chat user U024BE7LH');
  expect(personLabel('chatapp:U024BE7LH', undefined)).toBe('chat user U024BE7LH');
});

test('someone who used an answer link is named by the link, never looked up', () => {
  expect(personLabel('link:fdda85410bbd331b', people)).toBe('answer link fdda85410bbd331b');
  expect(personLabel('link:fdda85410bbd331b', undefined)).toBe('answer link fdda85410bbd331b');
});
