import type { Metadata } from 'next';
import Link from 'next/link';
import './globals.css';
import { AccountMenu } from './(account)/_components/account-menu';
import { WorkspaceSwitcher } from './(teams)/_components/workspace-switcher';

export const metadata: Metadata = {
  title: { default: 'Skillyard', template: '%s · Skillyard' },
  description: 'Publish, find and try AI-agent skills.',
};

const nav = [
  { href: '/', label: 'Skills' },
  { href: '/playground', label: 'Playground' },
  { href: '/publish', label: 'Publish' },
  { href: '/api/v1/openapi.json', label: 'API' },
];

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col bg-white font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <header className="border-b border-zinc-200 dark:border-zinc-800">
          <div className="mx-auto flex h-14 max-w-6xl items-center gap-8 px-4">
            <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
              <span aria-hidden className="grid h-7 w-7 place-items-center rounded-md bg-emerald-600 text-sm text-white">S</span>
              Skillyard
            </Link>
            <nav aria-label="Main" className="flex gap-5 text-sm text-zinc-600 dark:text-zinc-400">
              {nav.map((item) => (
                <Link key={item.href} href={item.href} className="hover:text-zinc-900 dark:hover:text-white">
                  {item.label}
                </Link>
              ))}
            </nav>
            <div className="ml-auto flex items-center gap-2"><WorkspaceSwitcher /><AccountMenu /></div>
          </div>
        </header>
        <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">{children}</main>
        <footer className="border-t border-zinc-200 text-sm text-zinc-500 dark:border-zinc-800">
          <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-4">
            <span>Skillyard — an open registry and playground for AI-agent skills</span>
            <Link href="/api/health" className="hover:underline">
              Status
            </Link>
          </div>
        </footer>
      </body>
    </html>
  );
}
