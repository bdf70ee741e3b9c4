import type { Wire } from '../catalog/types';
import { chatCompatAdapter } from './chat-compat';
import type { WireAdapter } from './types';
import { vendorAAdapter } from './vendor-a';
import { vendorBAdapter } from './vendor-b';

const ADAPTERS: Record<Wire, WireAdapter> = {
  chat_compat: chatCompatAdapter,
  vendor_a: vendorAAdapter,
  vendor_b: vendorBAdapter,
};

/** The adapter that speaks a provider's wire. Every wire has one, so this never fails for a valid catalog. */
export function adapterFor(wire: Wire): WireAdapter {
  return ADAPTERS[wire];
}

export { ProviderCallError } from './types';
export type { AdapterReply, AdapterRequest, FailureKind, WireAdapter } from './types';
