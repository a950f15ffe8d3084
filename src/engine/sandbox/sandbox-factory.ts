import { DockerSandbox } from '../docker/docker-sandbox.ts';
import { ProcessSandbox } from './process-sandbox.ts';
import type { Sandbox } from './sandbox.ts';

export function createSandbox(kind: 'docker' | 'process'): Sandbox {
  return kind === 'docker' ? new DockerSandbox() : new ProcessSandbox();
}
