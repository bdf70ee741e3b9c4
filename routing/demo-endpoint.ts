/** The catalog's provider name for the built-in offline demo model (config/models/catalog.yaml). */
export const DEMO_PROVIDER = 'demo';
