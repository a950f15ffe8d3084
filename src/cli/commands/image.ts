import type { Command } from 'commander';

/** `tandem image build [node|python|go|all]`: the sandbox images, from the package's own scripts. */
export function registerImage(program: Command): void {
  const image = program.command('image').description('build the offline sandbox images the suites run in');
  image
    .command('build')
    .argument(
      '[kind]',
      'node (tandem/sandbox:node20), python (tandem/sandbox:python3), go (tandem/sandbox:go) or all',
      'node',
    )
    .option('--force', 'rebuild an image that already exists')
    .description("build a sandbox image from this host's own toolchains (no registry needed)")
    .action(async (kind: string, raw: { force?: boolean }) => {
      const { imageBuildCommand } = await import('../run/image.ts');
      process.exitCode = await imageBuildCommand(kind, raw);
    });
}
