/** A level's role: `L1.` to `L4.` and a role name, e.g. `L2.architect`; routing reads the `L<n>.` prefix to choose the budget band. */
export const LEVEL_ROLE = /^L[1-4]\.[a-z][a-z0-9_]*$/;
