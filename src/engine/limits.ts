/** Moved to core (the suite schema checks limits at load); kept so engine imports stay short. */
export { parseMemory } from '../core/memory-size.ts';
