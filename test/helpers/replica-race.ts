/**
 * Forcing an interleaving between two replicas in a test, without sleeps: `firstCall` resolves
 * when a method of one replica's object is first called (the replica reached that point), and
 * `holdUntil` makes a method wait for such an event before it runs.
 */

type Method = (...args: never[]) => Promise<unknown>;
type MethodsOf<T> = { [K in keyof T]: T[K] extends Method ? K : never }[keyof T];

/** Resolves the first time `obj[name]` is called (the call itself goes on as usual). */
export function firstCall<T extends object, K extends MethodsOf<T>>(obj: T, name: K): Promise<void> {
  const original = obj[name] as unknown as Method;
  let reached: () => void = () => {};
  const seen = new Promise<void>((ok) => {
    reached = ok;
  });
  (obj as Record<K, Method>)[name] = ((...args: never[]) => {
    reached();
    return original.apply(obj, args);
  }) as Method;
  return seen;
}

/** Every call of `obj[name]` waits for `event` first, then runs as usual. */
export function holdUntil<T extends object, K extends MethodsOf<T>>(
  obj: T,
  name: K,
  event: Promise<unknown>,
): void {
  const original = obj[name] as unknown as Method;
  (obj as Record<K, Method>)[name] = (async (...args: never[]) => {
    await event;
    return original.apply(obj, args);
  }) as Method;
}
