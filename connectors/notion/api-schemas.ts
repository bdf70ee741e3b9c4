// The slices of Notion's public API JSON the connector reads, validated at the boundary. Objects are loose because
// Notion adds fields between versions; the connector only depends on what is named here.
import { z } from 'zod';

export const AnnotationsSchema = z.looseObject({
  bold: z.boolean().default(false),
  italic: z.boolean().default(false),
  strikethrough: z.boolean().default(false),
  underline: z.boolean().default(false),
  code: z.boolean().default(false),
});

export const RichTextSchema = z.looseObject({
  type: z.string(),
  plain_text: z.string(),
  href: z.string().nullish(),
  annotations: AnnotationsSchema.optional(),
});
export type RichText = z.infer<typeof RichTextSchema>;

/** A block as `GET /v1/blocks/{id}/children` returns it; the type-specific payload sits under the key `type`. */
export const BlockSchema = z.looseObject({
  object: z.literal('block').optional(),
  id: z.string().min(1),
  type: z.string().min(1),
  has_children: z.boolean().default(false),
});
export type Block = z.infer<typeof BlockSchema>;

/** A block with the children the client fetched for it (empty when it has none or when they are not rendered). */
export interface BlockNode {
  block: Block;
  children: BlockNode[];
}

export const PageSchema = z.looseObject({
  object: z.literal('page'),
  id: z.string().min(1),
  url: z.url(),
  last_edited_time: z.iso.datetime({ offset: true }),
  properties: z.record(z.string(), z.looseObject({ type: z.string() })).default({}),
});
export type Page = z.infer<typeof PageSchema>;

export function listSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    object: z.literal('list'),
    results: z.array(item),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
  });
}

/** Search can return databases too when the filter is ignored; keep pages, skip the rest. */
export const SearchResultSchema = z.union([PageSchema, z.looseObject({ object: z.string() })]);
