import { redactSecret } from './redact';

test('every occurrence of the value is replaced; no value, or a short one, leaves the text as it is', () => {
  expect(redactSecret('Incorrect API key provided: sk-abc12345 (sk-abc12345)', 'sk-abc12345')).toBe(
    'Incorrect API key provided: [secret] ([secret])',
  );
  expect(redactSecret('HTTP 401', undefined)).toBe('HTTP 401');
  expect(redactSecret('a bad key', 'a')).toBe('a bad key');
});
