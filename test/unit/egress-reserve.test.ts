import { describe, expect, it } from 'vitest';
import { DescriptorReserve, descriptorBudget } from '../../src/engine/prepare/egress-reserve.ts';

const limits = (soft: string) =>
  `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                20000                files     \n`;

describe('descriptor reserve of the egress proxies', () => {
  it('is a quarter of the soft limit, at most 4096, with a fallback when unreadable', () => {
    expect(descriptorBudget(limits('1024'))).toBe(256);
    expect(descriptorBudget(limits('20000'))).toBe(4096);
    expect(descriptorBudget(limits('unlimited'))).toBe(4096);
    expect(descriptorBudget(undefined)).toBe(256);
    expect(descriptorBudget('garbage')).toBe(256);
  });

  it('hands out no more than its budget and takes back what was given', () => {
    const r = new DescriptorReserve(2);
    expect([r.take(), r.take(), r.take()]).toEqual([true, true, false]);
    r.give();
    expect(r.take()).toBe(true);
    expect(r.inUse).toBe(2);
  });
});
