// The tests' seeded PRNG is the one the training split uses.
export { mulberry32 as rng } from '../../training/rng.js';
