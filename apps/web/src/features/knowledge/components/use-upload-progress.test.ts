import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextSimulated, useUploadProgress } from './use-upload-progress';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the upload progress overlay', () => {
  it('simulates progress every 200 ms, slowing and never passing 98 before completion', () => {
    let p = 0;
    for (let i = 0; i < 1000; i++) p = nextSimulated(p);
    expect(p).toBe(98);
    const { result } = renderHook(() => useUploadProgress(() => {}));
    act(() => result.current.start());
    act(() => vi.advanceTimersByTime(200));
    const first = result.current.state.progress;
    expect(first).toBeGreaterThan(0);
    act(() => vi.advanceTimersByTime(200 * 200));
    expect(result.current.state.progress).toBeLessThanOrEqual(98);
    expect(result.current.state.measured).toBe(false);
  });

  it('jumps to 100 on success and completes after 3000 ms for a single item, 500 ms otherwise', () => {
    const done = vi.fn();
    const { result } = renderHook(() => useUploadProgress(done));
    act(() => result.current.start());
    act(() => result.current.succeed(true));
    expect(result.current.state).toMatchObject({ status: 'success', progress: 100 });
    act(() => vi.advanceTimersByTime(2999));
    expect(done).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(done).toHaveBeenCalledTimes(1);
    expect(result.current.state.status).toBe('idle');
    act(() => result.current.start());
    act(() => result.current.succeed(false));
    act(() => vi.advanceTimersByTime(500));
    expect(done).toHaveBeenCalledTimes(2);
  });

  it('follows (processed + failed) / total for batches, capped at 98 until all are done', () => {
    const { result } = renderHook(() => useUploadProgress(() => {}));
    act(() => result.current.start({ measured: true }));
    act(() => result.current.batch(49, 0, 50));
    expect(result.current.state.progress).toBe(98);
    act(() => result.current.batch(49, 1, 50));
    expect(result.current.state.progress).toBe(100);
    act(() => result.current.partial('some failed'));
    expect(result.current.state).toMatchObject({ status: 'partial', message: 'some failed' });
    act(() => result.current.fail('all failed'));
    expect(result.current.state.status).toBe('error');
  });

  it('shows measured upload bytes and never goes backwards', () => {
    const { result } = renderHook(() => useUploadProgress(() => {}));
    act(() => result.current.start({ measured: true }));
    act(() => result.current.measure(0.5, 90));
    expect(result.current.state.progress).toBe(45);
    act(() => result.current.measure(0.2, 90));
    expect(result.current.state.progress).toBe(45);
    expect(result.current.state.measured).toBe(true);
  });
});
