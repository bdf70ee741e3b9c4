import { checkCommand, commandPatternProblem } from './command-allowlist';

const allowed = ['npm test', 'npm test -- ...', 'npm run *', 'node --test ...', 'cat *'];

test.each([
  ['npm test', 'npm test'],
  ['npm test -- --grep "a b"', 'npm test -- ...'],
  ['npm run lint', 'npm run *'],
  ['node --test', 'node --test ...'],
  ['node --test test/a.test.js test/b.test.js', 'node --test ...'],
  ['cat docs/intro.md', 'cat *'],
])('%s is allowed by %s', (command, pattern) => {
  const check = checkCommand(command, allowed);
  expect(check).toMatchObject({ ok: true, pattern });
});

test('what runs is the matched words quoted again, so the shell sees exactly them', () => {
  expect(checkCommand('npm test -- --grep "a b"', allowed)).toMatchObject({
    words: ['npm', 'test', '--', '--grep', 'a b'],
    script: "npm test -- --grep 'a b'",
  });
});

test.each([
  ['npm test; rm -rf /', 'shell operators are not allowed (;)'],
  ['npm test && curl example.com', 'shell operators are not allowed (&&)'],
  ['cat a.md | sh', 'shell operators are not allowed (|)'],
  ['cat a.md > b.md', 'shell operators are not allowed (>)'],
  ['cat $(whoami)', 'shell operators are not allowed'],
  ['cat "$HOME/.ssh/id_rsa"', 'variables are not expanded ($HOME)'],
  ['cat *.md', 'wildcards are not expanded (*.md)'],
  ['npm test # all', 'comments (#) are not allowed'],
  ['npm test\nrm -rf /', 'one line only'],
  ['', 'the command is empty'],
])('%j is refused: %s', (command, reason) => {
  const check = checkCommand(command, allowed);
  expect(check.ok).toBe(false);
  expect(!check.ok && check.reason).toContain(reason);
});

test('a command no pattern matches is refused with the patterns named', () => {
  const check = checkCommand('npm install left-pad', allowed);
  expect(check.ok).toBe(false);
  expect(!check.ok && check.reason).toContain(
    'not an allowed command; this level may run: "npm test", "npm test -- ..."',
  );
  // One word too many for a closed pattern; `cat *` matches one file, not two.
  expect(checkCommand('npm run lint --fix', allowed).ok).toBe(false);
  expect(checkCommand('cat a.md b.md', allowed).ok).toBe(false);
});

test('an unmatched plain command says what would run (an approval may let it), a shell construct does not', () => {
  expect(checkCommand('npm install "left pad"', allowed)).toMatchObject({
    ok: false,
    unlisted: { script: "npm install 'left pad'" },
  });
  expect(checkCommand('npm install; ls', allowed)).not.toHaveProperty('unlisted');
  expect(checkCommand('npm test', [])).not.toHaveProperty('unlisted');
});

test('a level with no allowlist runs nothing', () => {
  expect(checkCommand('npm test', [])).toEqual({
    ok: false,
    reason: 'this level may not run commands (its scenario allows none)',
  });
});

test('scenario patterns are checked when the scenario loads', () => {
  expect(commandPatternProblem('npm run *')).toBeUndefined();
  expect(commandPatternProblem('node --test ...')).toBeUndefined();
  expect(commandPatternProblem('npm test; ls')).toBe('only words and wildcards are allowed');
  expect(commandPatternProblem('... npm')).toBe('"..." may only be the last word');
  expect(commandPatternProblem('  ')).toBe('must not be empty');
});
