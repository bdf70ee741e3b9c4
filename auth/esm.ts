// The identity service's ESM-only dependencies, loaded in one place. This project compiles to CommonJS
// (module node16), where a static import of an ES module does not type-check; Node 20.19+ loads them through
// require(esm), and jest compiles them to CommonJS (jest.config.js). See docs/identity.md, "Loading ESM".
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as LuciaPostgres from '@lucia-auth/adapter-postgresql' with { 'resolution-mode': 'import' };
import type * as Lucia from 'lucia' with { 'resolution-mode': 'import' };
import type * as OpenIdClient from 'openid-client' with { 'resolution-mode': 'import' };

export type LuciaModule = typeof Lucia;
export type LuciaPostgresModule = typeof LuciaPostgres;
export type OpenIdClientModule = typeof OpenIdClient;

export function loadLucia(): LuciaModule {
  return require('lucia') as LuciaModule;
}

export function loadLuciaPostgres(): LuciaPostgresModule {
  return require('@lucia-auth/adapter-postgresql') as LuciaPostgresModule;
}

export function loadOpenIdClient(): OpenIdClientModule {
  return require('openid-client') as OpenIdClientModule;
}
