import { z } from 'zod';

/** The connectors spec's enumeration, least to most restricted. */
export const SENSITIVITY_LEVELS = ['public', 'partner', 'internal', 'secret'] as const;
export const SensitivitySchema = z.enum(SENSITIVITY_LEVELS);
export type Sensitivity = z.infer<typeof SensitivitySchema>;

/** A token's default clearance when none is set: admins read everything, others all but `secret`. */
export function defaultClearance(isAdmin: boolean): Sensitivity {
  return isAdmin ? 'secret' : 'internal';
}

/** Every level at or below `clearance`. */
export function levelsUpTo(clearance: Sensitivity): Sensitivity[] {
  return SENSITIVITY_LEVELS.slice(0, SENSITIVITY_LEVELS.indexOf(clearance) + 1);
}

/** The levels a caller may read, narrowed by a filter if given; a filter never widens what the clearance allows. */
export function readableLevels(clearance: Sensitivity, requested?: readonly Sensitivity[]): Sensitivity[] {
  const allowed = levelsUpTo(clearance);
  return requested ? allowed.filter((level) => requested.includes(level)) : allowed;
}
