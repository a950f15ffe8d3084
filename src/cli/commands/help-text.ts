/**
 * The text `tandem --help` shows after the commands: examples, exit codes and the environment
 * variables the CLI reads. Kept beside the commands so a new one adds its example here.
 */
export const EXAMPLES = `Examples:
  tandem eval case.yml                          evaluate; progress and summary on stderr
  tandem eval case.yml --json report.json --markdown report.md
  tandem eval case.yml --json - | jq .verdict   the JSON report alone on stdout
  tandem eval --pr acme/api#45 --pr acme/schema#12 --config tandem.yml --evaluator-dir ../tandem-suites
                                                the App's verdict on those PRs, rebuilt here
  tandem validate gold.yml --quiet              check a gold change; only the verdict line
  tandem plan case.yml --shards 4               configurations per shard, for a workflow matrix
  tandem eval case.yml --shard 2/4 --json part2.json
  tandem combine part*.json --markdown report.md  combine the shards' reports
  tandem queue simulate trace.jsonl --json      the merge queue's figures on a trace of
                                                linked sets, beside a serial baseline
  tandem worker --database-url postgres://… --concurrency 2
                                                run configurations of \`executor: workers\` evaluations`;

export const EXIT_CODES = `Exit codes:
  0    resolved (validate: valid; plan, --help, --version: success)
  1    not resolved (validate: invalid)
  2    bad input: a case, suite or report file, or a flag (the message names it),
       a ref of the case that does not exist, a patch that is empty or does not apply
  3    infrastructure error: git, Docker, a missing image (never a verdict on the code)
  130  interrupted (Ctrl-C; containers are removed)`;

export const ENVIRONMENT = `Environment:
  TANDEM_CACHE_DIR      default for --cache-dir (else the user cache folder)
  TANDEM_WORK_DIR       default for --work-dir (else a tmpfs with room, else <cache>/tmp)
  TANDEM_TEMPLATES_DIR  report templates folder (when the package's templates/ moved)
  DOCKER_HOST           the Docker engine (also DOCKER_CERT_PATH, DOCKER_TLS_VERIFY)
  NODE_EXTRA_CA_CERTS   default for --ca-bundle (also SSL_CERT_FILE, else the system bundle)
  NO_COLOR              no colours (any non-empty value)
  FORCE_COLOR           colours even into a pipe (0 or false: never)
  GITHUB_TOKEN          eval --pr: reads the PRs and clones their repositories (also GH_TOKEN)
  GITHUB_API_URL        eval --pr: the GitHub API (default https://api.github.com)
  DATABASE_URL          worker: default for --database-url`;

export const PROGRAM_HELP = `\n${EXAMPLES}\n\n${EXIT_CODES}\n\n${ENVIRONMENT}\n`;

/** After `eval --help` and `validate --help`: what the exit code means and what is read. */
export const COMMAND_HELP = `\n${EXIT_CODES}\n\n${ENVIRONMENT}\n`;
