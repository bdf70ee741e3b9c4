import { stopSharedServices, type SharedServicesHolder } from './integration/shared-services';

/** Stops what test/global-setup.ts started for the run. */
export default async function globalTeardown(): Promise<void> {
  const shared = (globalThis as SharedServicesHolder).keelSharedServices;
  if (shared) await stopSharedServices(shared);
}
