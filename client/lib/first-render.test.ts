import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAfterFirstLoad } from './first-render';

/** A promise with its settle functions, to finish a "load" when the test says so. */
function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('renderAfterFirstLoad', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renders once the first load has finished, before the wait is over', async () => {
    const load = deferred();
    const render = vi.fn();
    renderAfterFirstLoad(load.promise, 300, render);
    await vi.advanceTimersByTimeAsync(100);
    expect(render).not.toHaveBeenCalled();
    load.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(render).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('renders after the wait when the load takes longer, and not again when it finishes', async () => {
    const load = deferred();
    const render = vi.fn();
    renderAfterFirstLoad(load.promise, 300, render);
    await vi.advanceTimersByTimeAsync(299);
    expect(render).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(render).toHaveBeenCalledTimes(1);
    load.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('renders when the load fails, so the router can show its error screen', async () => {
    const load = deferred();
    const render = vi.fn();
    renderAfterFirstLoad(load.promise, 300, render);
    load.reject(new Error('loader failed'));
    await vi.advanceTimersByTimeAsync(0);
    expect(render).toHaveBeenCalledTimes(1);
  });
});
