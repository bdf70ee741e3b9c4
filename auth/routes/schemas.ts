import { z } from 'zod';
import { ROLES } from '../../db/users';

export const ErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(ROLES),
  banned: z.boolean(),
  banReason: z.string().nullable(),
  budgetCents: z.number().int().nullable(),
  createdAt: z.string(),
});

export const BudgetSchema = z.object({
  exempt: z.boolean(),
  budgetCents: z.number().int().nullable(),
  spentCents: z.number().int(),
  remainingCents: z.number().int().nullable(),
  overBudget: z.boolean(),
  periodStart: z.string(),
});

export const UserIdSchema = z.string().min(1).max(200);
