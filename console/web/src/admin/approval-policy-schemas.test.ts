import { expect, test } from '@jest/globals';
import { policyIssues } from './approval-policy-schemas';

test("an invalid_policy message is split into its issues, not at a '; ' inside one", () => {
  expect(
    policyIssues(
      'rules.0.id: lowercase letters, digits, _ and -; at most 64; rules.1.when: Unrecognized key: "max_cost"',
    ),
  ).toEqual([
    'rules.0.id: lowercase letters, digits, _ and -; at most 64',
    'rules.1.when: Unrecognized key: "max_cost"',
  ]);
  expect(policyIssues('policy_yaml is not YAML: Flow sequence in block collection')).toEqual([
    'policy_yaml is not YAML: Flow sequence in block collection',
  ]);
});
