import { describe, expect, it } from 'vitest';
import { defaultStream } from './stream-choice.ts';

describe('the stream a wall window asks for', () => {
  it('is the main stream in a grid of 4 or fewer windows and the sub stream above', () => {
    expect(defaultStream(1, null)).toBe(0);
    expect(defaultStream(4, null)).toBe(0);
    expect(defaultStream(9, null)).toBe(1);
    expect(defaultStream(16, undefined)).toBe(1);
    expect(defaultStream(25, null)).toBe(1);
  });

  it('follows the window\'s stored play type whatever the grid', () => {
    expect(defaultStream(25, '0')).toBe(0);
    expect(defaultStream(4, '1')).toBe(1);
  });

  it('ignores a stored value that is not a play type', () => {
    expect(defaultStream(4, 'x')).toBe(0);
    expect(defaultStream(9, '')).toBe(1);
  });
});
