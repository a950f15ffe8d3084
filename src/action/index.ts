/** The bundle's entry (dist/index.js, `runs.main` in action.yml): runs the Action once. */
import { run } from './main.ts';

await run();
