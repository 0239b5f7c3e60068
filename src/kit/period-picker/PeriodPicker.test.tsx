// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Period } from '../../../domain/period/period.ts';
import { setLanguage } from '../../i18n/index.ts';
import { PeriodPicker } from './index.ts';

let last: Period = { start: '', end: '' };

function Screen({ initial, maxSpanDays }: { initial: Period; maxSpanDays?: number }) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider>
      <PeriodPicker value={value} onChange={(p) => { last = p; setValue(p); }} quick={['today', 'yesterday', 'last3Days']} limits={{ maxSpanDays }}
        testIds={{ start: 'p-start', end: 'p-end', quick: 'p-quick' }} now={() => new Date(2026, 10, 25, 14, 30)} />
    </MantineProvider>
  );
}

const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;

describe('the period picker', () => {
  beforeAll(() => {
    window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
  });
  afterEach(() => {
    cleanup();
    act(() => setLanguage('zh'));
  });

  it('shows 24-hour times as 2026-11-25 00:00, not the browser locale, and takes typed ones', async () => {
    act(() => setLanguage('zh'));
    render(<Screen initial={{ start: '2026-11-25T00:00', end: '2026-11-25T18:45' }} />);
    expect(input('p-start').value).toBe('2026-11-25 00:00');
    expect(input('p-end').value).toBe('2026-11-25 18:45');
    fireEvent.change(input('p-start'), { target: { value: '2026-11-20 07:30' } });
    expect(last).toEqual({ start: '2026-11-20T07:30', end: '2026-11-25T18:45' });
    // A typed date closes the calendar, so it covers no button the operator clicks next.
    expect(document.querySelector('[data-dates-dropdown]')).toBeNull();
    fireEvent.click(input('p-end'));
    await waitFor(() => expect(document.querySelector('[data-dates-dropdown]')).not.toBeNull());
    // Not a real time: the period keeps its value.
    fireEvent.change(input('p-end'), { target: { value: '2026-02-30 07:30' } });
    expect(last.end).toBe('2026-11-25T18:45');
  });

  it('fills a quick range as of the screen clock, labelled in the UI language', async () => {
    act(() => setLanguage('en'));
    render(<Screen initial={{ start: '', end: '' }} />);
    expect(screen.getByText('From')).toBeTruthy();
    fireEvent.click(screen.getByTestId('p-quick'));
    const item = await screen.findByTestId('p-quick-yesterday');
    expect(item.textContent).toBe('Yesterday');
    fireEvent.click(item);
    expect(last).toEqual({ start: '2026-11-24T00:00', end: '2026-11-24T23:59' });
    expect(input('p-start').value).toBe('2026-11-24 00:00');
  });

  it('states the screen limit, and restates it after a language switch', () => {
    act(() => setLanguage('zh'));
    render(<Screen initial={{ start: '2026-11-01T00:00', end: '2026-11-09T00:00' }} maxSpanDays={7} />);
    expect(screen.getByTestId('p-start-problem').textContent).toBe('时间段不能超过 7 天');
    act(() => setLanguage('en'));
    expect(screen.getByTestId('p-start-problem').textContent).toBe('The period must not exceed 7 days');
    fireEvent.change(input('p-end'), { target: { value: '2026-11-05 00:00' } });
    expect(screen.queryByTestId('p-start-problem')).toBeNull();
  });
});
