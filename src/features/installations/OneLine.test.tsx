// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { OneLine } from './OneLine.tsx';

/** jsdom lays nothing out: the text's full width and the cell's width as the browser would measure them. */
function measure(full: number, shown: number) {
  Object.defineProperty(HTMLElement.prototype, 'scrollWidth', { configurable: true, get: () => full });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => shown });
}

beforeAll(stubBrowserApis);
afterEach(() => {
  cleanup();
  delete (HTMLElement.prototype as { scrollWidth?: number }).scrollWidth;
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
});

const LONG = '更换后终端安装在驾驶室顶部，线束走左侧A柱，已与车队长确认';

describe('a one-line cell', () => {
  it('keeps its text on one line with an ellipsis, and shows the whole text in a tooltip when it is cut', async () => {
    measure(600, 120);
    render(<MantineProvider><OneLine text={LONG} /></MantineProvider>);
    const cell = screen.getByText(LONG);
    expect(cell.getAttribute('data-truncate')).toBe('end');
    fireEvent.pointerEnter(cell, { pointerType: 'mouse' });
    fireEvent.mouseEnter(cell);
    fireEvent.mouseMove(cell);
    expect((await screen.findByRole('tooltip', {}, { timeout: 2000 })).textContent).toBe(LONG);
  });

  it('shows no tooltip when the whole text fits', async () => {
    measure(80, 120);
    render(<MantineProvider><OneLine text="沪A12345" /></MantineProvider>);
    const cell = screen.getByText('沪A12345');
    fireEvent.pointerEnter(cell, { pointerType: 'mouse' });
    fireEvent.mouseEnter(cell);
    fireEvent.mouseMove(cell);
    await new Promise((r) => setTimeout(r, 600));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
