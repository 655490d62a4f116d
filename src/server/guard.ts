// The address guard lives in src/guard.ts (the CLI uses it too); server code imports it from here or there.
export * from '../guard.js';
