#!/usr/bin/env node
// `npx calls-conformance [COMMAND]` in a project that installed the suite: the same entry as
// `npm run conformance` in the clone. The suite ships as TypeScript; tsx's loader is registered here
// because Node does not run TypeScript and tsx's command is not on the user's path.
import { register } from 'tsx/esm/api';

register();
await import('../reporters/cli/conformance.ts');
