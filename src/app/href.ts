/** `/login?redirect=%2Fa` → `{to: '/login', search: {redirect: '/a'}}` for router.navigate / redirect. */
export function splitHref(href: string): { to: string; search: Record<string, string> } {
  const [path = '/', query = ''] = href.split('?', 2);
  const search: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(query)) search[k] = v;
  return { to: path, search };
}
