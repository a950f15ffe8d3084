/**
 * The abort signal of the evaluation publishing now: a content-creating request made inside
 * `publishing.run(signal, …)` is sent with it (the App's paced client reads it), so a
 * comment still waiting for the content budget when a newer evaluation supersedes this one is
 * never posted. Its own module so that rooms set it without importing the client.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const publishing = new AsyncLocalStorage<AbortSignal>();
