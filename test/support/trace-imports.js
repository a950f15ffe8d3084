// `node --import <this file> …`: records every module the program resolves (one URL a line)
// into the file named by $TRACE_IMPORTS_FILE, through a resolve hook (trace-imports-hooks.js).
import { register } from 'node:module';

register('./trace-imports-hooks.js', import.meta.url, { data: { file: process.env.TRACE_IMPORTS_FILE } });
