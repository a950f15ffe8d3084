/**
 * What core's walk (`expandLinkedSet`, synchronous and pure) asks of the store while it runs —
 * whose side confirmed a link (`link-consent.ts`) and how private a PR was recorded — read ahead of
 * each walk. The store answers asynchronously (it may be a database server), so a walk's callbacks
 * cannot ask it: `readNodes` reads what the walk over those nodes will ask, and the callbacks answer
 * from here. A question nothing read ahead for is a bug in the caller, thrown, never a silent "no".
 */
import type { LinkNode } from '../../core/linked-set.ts';
import { pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import { loginKey, repoKey } from '../../core/repo-name.ts';
import type { RepoVisibility } from '../../core/repo-visibility.ts';
import type { Store } from '../store/store.ts';

interface PullFacts {
  author?: string | undefined;
  visibility?: RepoVisibility | undefined;
}

const linkKey = (from: string, to: string) => `${from} -> ${to}`;
const answerKey = (repo: string, login: string) => `${repoKey(repo)} ${loginKey(login)}`;

export class StoredFacts {
  private readonly pulls = new Map<string, PullFacts | undefined>();
  /** Who wrote each link read (its source's author for a body link, `/tandem link` commanders). */
  private readonly writers = new Map<string, readonly string[]>();
  /** GitHub's recorded answers on write access, `repo login` → answer (undefined: never asked). */
  private readonly answers = new Map<string, boolean | undefined>();

  constructor(private readonly store: Store) {}

  /** Reads the recorded facts (author, visibility) of PRs not read yet. */
  async readPulls(keys: Iterable<string>): Promise<void> {
    for (const k of keys) if (!this.pulls.has(k)) this.pulls.set(k, await this.store.pulls.facts(k));
  }

  /** Reads who wrote each link not read yet, and their recorded write access to its target. */
  async readLinks(links: Iterable<readonly [from: string, to: string]>): Promise<void> {
    for (const [from, to] of links) {
      if (this.writers.has(linkKey(from, to))) continue;
      await this.readPulls([from]);
      const logins = await this.store.links.writersOf(from, to, this.pulls.get(from)?.author);
      this.writers.set(linkKey(from, to), logins);
      const repo = repoOfPullKey(to);
      for (const login of logins)
        if (!this.answers.has(answerKey(repo, login)))
          this.answers.set(answerKey(repo, login), await this.store.links.isWriter(repo, login));
    }
  }

  /** Everything a walk over `nodes` asks: every node's facts, every link's writers and their answers. */
  async readNodes(nodes: ReadonlyMap<string, LinkNode>): Promise<void> {
    const links = [...nodes].flatMap(([from, n]) => n.links.map((to) => [from, pullKey(to)] as const));
    await this.readPulls([...nodes.keys(), ...links.map(([, to]) => to)]);
    await this.readLinks(links);
  }

  /** Forgets everything read: the store learnt new facts since (PRs recorded, GitHub's answers). */
  forget(): void {
    this.pulls.clear();
    this.writers.clear();
    this.answers.clear();
  }

  /** Consent as the store recorded it: a writer of `to`'s repository wrote or commanded `from → to`. */
  readonly confirmed = (from: string, to: string): boolean =>
    this.linkWriters(from, to).some((l) => this.answers.get(answerKey(repoOfPullKey(to), l)) === true);

  /** Whether GitHub was asked about every writer of the link `from → to`. */
  consentKnown(from: string, to: string): boolean {
    return this.linkWriters(from, to).every(
      (l) => this.answers.get(answerKey(repoOfPullKey(to), l)) !== undefined,
    );
  }

  /** A PR's visibility as the index recorded it, if known. */
  readonly visibility = (key: string): RepoVisibility | undefined => this.facts(key)?.visibility;

  author(key: string): string | undefined {
    return this.facts(key)?.author;
  }

  private facts(key: string): PullFacts | undefined {
    if (!this.pulls.has(key))
      throw new Error(`the stored facts of ${key} were not read before the walk asked`);
    return this.pulls.get(key);
  }

  private linkWriters(from: string, to: string): readonly string[] {
    const logins = this.writers.get(linkKey(from, to));
    if (!logins)
      throw new Error(`the writers of the link ${from} -> ${to} were not read before the walk asked`);
    return logins;
  }
}
