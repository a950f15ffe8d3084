/** What `mineGitHub` reports as it goes (the CLI draws it: `cli/run/mine.ts`). */
export interface MineProgress {
  repos: number;
  reposTotal: number;
  pulls: number;
  stage: string;
}
