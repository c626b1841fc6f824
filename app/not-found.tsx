import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">There is nothing here, or it is not yours to see.</p>
      <Link href="/" className="mt-6 inline-block text-emerald-700 underline dark:text-emerald-400">
        Back to the skills
      </Link>
    </div>
  );
}
