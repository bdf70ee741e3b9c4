import { jobSummary } from './job-summary';

describe('the final summary', () => {
  test('counts level runs, retries included, with the verdict and files', () => {
    expect(jobSummary(17, 'pass', ['a.md', 'b.md'])).toBe('17 levels ran; wrote a.md, b.md; verifier: pass.');
  });

  test('says "1 level ran" for one, and names no files when none were written', () => {
    expect(jobSummary(1, undefined, [])).toBe('1 level ran; wrote no files.');
  });
});
