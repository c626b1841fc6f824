import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import './globals.css';
import { AccountMenu } from './(account)/_components/account-menu';
import { WorkspaceSwitcher } from './(teams)/_components/workspace-switcher';

export const metadata: Metadata = {
  title: { default: 'Skillyard', template: '%s · Skillyard' },
  description: 'Publish, find and try AI-agent skills.',
  applicationName: 'Skillyard',
  openGraph: { siteName: 'Skillyard', type: 'website', title: 'Skillyard', description: 'Publish, find and try AI-agent skills.' },
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

const nav = [
  { href: '/', label: 'Skills' },
  { href: '/playground', label: 'Playground' },
  { href: '/publish', label: 'Publish' },
  { href: '/api-reference', label: 'API' },
];

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col bg-white font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <a href="#main" className="sr-only z-50 rounded-md bg-emerald-700 px-3 py-2 text-sm font-medium text-white focus:not-sr-only focus:absolute focus:top-2 focus:left-2">
          Skip to content
        </a>
        <header className="border-b border-zinc-200 dark:border-zinc-800">
          <div className="mx-auto flex min-h-14 max-w-6xl min-w-0 flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2 sm:gap-x-8">
            <Link href="/" className="flex shrink-0 items-center gap-2 font-semibold tracking-tight">
              <span aria-hidden className="grid h-7 w-7 place-items-center rounded-md bg-emerald-700 text-sm text-white">
                S
              </span>
              Skillyard
            </Link>
            {/* the account corner stays on the first row beside the logo; below 640 px the
                links take a row of their own (and scroll rather than push anything off screen) */}
            <div className="ml-auto flex shrink-0 items-center gap-2 sm:order-last" data-testid="header-account">
              <WorkspaceSwitcher />
              <AccountMenu />
            </div>
            <nav aria-label="Main" className="-mx-1 order-last w-full overflow-x-auto text-sm text-zinc-700 sm:order-none sm:mx-0 sm:w-auto dark:text-zinc-300">
              <ul className="flex gap-1 sm:gap-3">
                {nav.map((item) => (
                  <li key={item.href}>
                    <Link href={item.href} className="block rounded px-1 py-1 whitespace-nowrap hover:text-zinc-900 dark:hover:text-white">
                      {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
        </header>
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl min-w-0 flex-1 px-4 py-8 outline-none">
          {children}
        </main>
        <footer className="border-t border-zinc-200 text-sm text-zinc-700 dark:border-zinc-800 dark:text-zinc-300">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-4">
            <span>Skillyard — an open registry and playground for AI-agent skills</span>
            {/* a JSON route, not a page: a plain link (next/link would prefetch it as a page) */}
            <a href="/api/health" className="underline-offset-2 hover:underline">
              Status
            </a>
          </div>
        </footer>
      </body>
    </html>
  );
}
