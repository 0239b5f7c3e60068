// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entryByKey } from '../../domain/permissions/access.ts';
import { masksFromIds } from '../../domain/permissions/bits.ts';
import { setUser } from '../session/store.ts';
import { Perm } from './Perm.tsx';

const id = (key: string) => entryByKey(key)?.id ?? 0;

function signInWith(keys: string[], userLevel = 2) {
  act(() => setUser({ id: 9, username: 'u', realName: null, userLevel, companyId: 1, geoInverse: false, permissions: masksFromIds(keys.map(id)) }));
}

describe('<Perm>', () => {
  beforeEach(() => signInWith(['/system', '/system/user', '/system/user:update']));
  afterEach(cleanup);

  it('renders a granted button and marks it with data-perm', () => {
    render(<Perm route="/system/user" button="update"><button>edit</button></Perm>);
    expect(screen.getByText('edit').getAttribute('data-perm')).toBe('/system/user:update');
  });

  it('removes a button whose bit is missing', () => {
    render(<Perm route="/system/user" button="delete"><button>delete</button></Perm>);
    expect(screen.queryByText('delete')).toBeNull();
  });

  it('removes an element whose bit is set when asked to (removeIfSet)', () => {
    render(
      <>
        <Perm route="/system/user" button="update" behaviour="removeIfSet"><span>read-only</span></Perm>
        <Perm route="/system/user" button="delete" behaviour="removeIfSet"><span>no-delete-hint</span></Perm>
      </>,
    );
    expect(screen.queryByText('read-only')).toBeNull();
    expect(screen.getByText('no-delete-hint')).toBeTruthy();
  });

  it('shows every button to an administrator', () => {
    signInWith([], 0);
    render(<Perm route="/system/user" button="delete"><button>delete</button></Perm>);
    expect(screen.getByText('delete')).toBeTruthy();
  });

  it('updates when the user changes', async () => {
    render(<Perm route="/system/user" button="delete"><button>delete</button></Perm>);
    expect(screen.queryByText('delete')).toBeNull();
    signInWith(['/system', '/system/user', '/system/user:delete']);
    // valtio notifies subscribers asynchronously
    expect(await screen.findByText('delete')).toBeTruthy();
  });
});
