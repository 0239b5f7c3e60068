// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n/index.ts';
import { MonthField } from './index.ts';

let last = '';

function Screen({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider>
      <MonthField value={value} onChange={(m) => { last = m; setValue(m); }} label="月份" data-testid="month" />
    </MantineProvider>
  );
}

const input = () => screen.getByTestId('month') as HTMLInputElement;

describe('the month field', () => {
  beforeAll(() => {
    window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
  });
  afterEach(() => {
    cleanup();
    act(() => setLanguage('zh'));
  });

  it('shows and takes 2026-11, and empties when the text is cleared', () => {
    render(<Screen initial="2026-11" />);
    expect(input().value).toBe('2026-11');
    fireEvent.change(input(), { target: { value: '2025-3' } });
    expect(last).toBe('2025-03');
    fireEvent.change(input(), { target: { value: '2025-13' } });
    expect(last).toBe('2025-03');
    fireEvent.change(input(), { target: { value: '' } });
    expect(last).toBe('');
  });

  it('offers a year of month names in the UI language, and a click picks the month', async () => {
    act(() => setLanguage('en'));
    render(<Screen initial="2026-11" />);
    fireEvent.click(input());
    const march = await waitFor(() => screen.getByText('Mar'));
    fireEvent.click(march);
    expect(last).toBe('2026-03');
    expect(input().value).toBe('2026-03');
  });
});
