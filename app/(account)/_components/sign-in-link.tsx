'use client';
// The header's "Sign in": it carries the page you are on, so signing in brings you back
// there (the sign-in page checks it is a local path) instead of to the home page.
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useState } from 'react';

export function SignInLink({ className }: { className: string }) {
  const pathname = usePathname() ?? '/';
  // the query string is read after hydration (useSearchParams would opt every page out of static rendering)
  const [search, setSearch] = useState('');
  useEffect(() => setSearch(window.location.search), [pathname]);
  const here = `${pathname}${search}`;
  const href = pathname === '/' && !search ? '/signin' : pathname.startsWith('/signin') ? '/signin' : `/signin?next=${encodeURIComponent(here)}`;
  return (
    <Link href={href} className={className} data-testid="sign-in-link">
      Sign in
    </Link>
  );
}
