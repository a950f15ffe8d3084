/**
 * Which PRs linking to a member a resolution reads from GitHub. Anyone can write `Depends-On:` a
 * maintainer's PR, hundreds of times: reading each of those PRs (and asking who may consent to
 * them) would make the maintainers' evaluation pay for strangers. So a PR the index knows, whose
 * link its side never confirmed (`link-consent.ts`, the answers recorded when its own webhook
 * came), is built from the index alone: it can only be named as "not followed", never join. Only
 * PRs whose link counts, PRs the index has never seen (search hits, a page at most), and a few
 * whose consent was never asked (at most `unknownBudget` per resolution) are read.
 */

import type { LinkNode } from '../../core/linked-set.ts';
import { parsePullKey } from '../../core/pull-ref.ts';
import type { Store } from '../store/store.ts';
import type { StoredFacts } from './stored-facts.ts';

export class StrangerLinks {
  private unknownBudget: number;

  constructor(
    private readonly store: Store,
    private readonly facts: StoredFacts,
    unknownBudget: number,
  ) {
    this.unknownBudget = unknownBudget;
  }

  /**
   * The index's node for `from` (which links to `member`) when its link is a stranger's and it
   * need not be read; undefined when the resolution must read it from GitHub.
   */
  async indexNode(from: string, member: string): Promise<LinkNode | undefined> {
    const stored = await this.store.pulls.get(from);
    if (!stored) return undefined;
    await this.facts.readLinks([[from, member]]);
    if (this.facts.confirmed(from, member)) return undefined;
    if (!this.facts.consentKnown(from, member) && this.unknownBudget > 0) {
      this.unknownBudget--;
      return undefined;
    }
    return { ref: parsePullKey(from), state: stored.state, links: stored.links };
  }
}
