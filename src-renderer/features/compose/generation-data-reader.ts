// Loaded on the first drop of a file (drop-recall.ts imports it dynamically): reading an exported image's
// generation data checks it against the contract's zod schemas, which the studio's start-up need not evaluate.
import '../../lib/zod-jitless.ts';

export { readGenerationData, recallableRequest } from '../../../src-shared/generation-data.ts';
