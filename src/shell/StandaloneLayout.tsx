import { Outlet } from '@tanstack/react-router';

/** Large screens render full-window without the shell (they open in a blank window). */
export default function StandaloneLayout() {
  return (
    <div style={{ minHeight: '100dvh' }} data-testid="standalone">
      <Outlet />
    </div>
  );
}
