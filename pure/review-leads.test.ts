import { isReviewLead, parseReview, reviewBrief } from './review-leads';

test('a blocking finding fails the review and becomes a delta for the executor; others are only reported', () => {
  const review = parseReview(
    'L2.security_lead',
    JSON.stringify({
      verdict: 'fail',
      findings: [
        { severity: 'blocking', finding: 'index.html embeds an API key', fix: 'index.html: remove the key' },
        { severity: 'minor', finding: 'no CSP header' },
      ],
    }),
  );
  expect(review.verdict).toBe('fail');
  expect(review.deltas).toEqual(['L2.security_lead: index.html: remove the key']);
  expect(review.findings.map((f) => f.severity)).toEqual(['blocking', 'minor']);
});

test('without a blocking finding the review passes, whatever verdict the model wrote', () => {
  const review = parseReview(
    'L2.adversarial_lead',
    '{"verdict":"fail","findings":[{"severity":"major","finding":"x"}]}',
  );
  expect(review).toMatchObject({ verdict: 'pass', deltas: [] });
  expect(parseReview('L2.adversarial_lead', '{"verdict":"pass","findings":[]}')).toEqual({
    verdict: 'pass',
    findings: [],
    deltas: [],
  });
});

test('an unreadable reply is unknown and stops nothing', () => {
  expect(parseReview('L2.security_lead', 'looks fine to me')).toEqual({ verdict: 'unknown', findings: [], deltas: [] });
  expect(parseReview('L2.security_lead', '{not json}').verdict).toBe('unknown');
});

test('only the security and adversarial leads review, and their briefs end with the request', () => {
  expect(isReviewLead('L2.security_lead')).toBe(true);
  expect(isReviewLead('L2.adversarial_lead')).toBe(true);
  expect(isReviewLead('L2.tech_lead')).toBe(false);
  expect(reviewBrief('L2.security_lead')).toMatch(/Request:\n\{\{request\}\}\n$/);
});
